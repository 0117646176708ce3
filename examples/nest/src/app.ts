import { ValidationPipe, VersioningType } from '@nestjs/common'
import { NestFactory } from '@nestjs/core'
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify'
import Fastify, { type FastifyInstance } from 'hotpath/fastify'
import { AppModule } from './app.module'

export interface AppOptions {
  // hotpath's engine: 'wire' (hotpath's own HTTP/1.1, the default), 'node'
  // (node:http) or 'h2' (HTTP/2, with http2: true)
  engine?: 'wire' | 'node' | 'h2'
  // how a request names the version of /greetings: in its path (/v1/...)
  // or in an X-API-Version header
  versioning?: 'uri' | 'header'
  // the function that makes the Fastify instance: hotpath/fastify's by
  // default (the tests pass Fastify's own, to compare)
  factory?: (options: object) => FastifyInstance
  // the adapter makes the instance itself, with require('fastify'): Fastify,
  // or hotpath/fastify where hotpath is in Fastify's place (hotpath-fastify
  // installed as `fastify`, or a process run by `hotpath check`)
  adapterMakesInstance?: boolean
}

export async function createApp (options: AppOptions = {}): Promise<NestFastifyApplication> {
  const { engine, versioning = 'uri', factory, adapterMakesInstance = false } = options
  // `engine` is hotpath's option, which Fastify's declarations do not list
  const fastifyOptions: object = engine === undefined ? {} : { engine, http2: engine === 'h2' }
  let adapter: FastifyAdapter
  if (adapterMakesInstance) {
    // the adapter puts Nest's version constraint on the router it makes
    adapter = new FastifyAdapter()
  } else {
    const instance = factory !== undefined
      ? factory(engine === 'h2' ? { http2: true } : {})
      : Fastify(fastifyOptions)
    adapter = new FastifyAdapter(instance)
    // Given an instance, the adapter leaves its router as it is, with
    // find-my-way's own `version` constraint (semver ranges in Accept-Version):
    // Nest's, which reads the version where enableVersioning() says, takes its
    // place before any route is declared.
    adapter.getInstance().addConstraintStrategy((adapter as unknown as { versionConstraint: never }).versionConstraint)
  }
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, adapter, { rawBody: true, logger: process.env.NEST_LOG ? ['error', 'warn'] : false })
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true }))
  app.enableVersioning(versioning === 'header'
    ? { type: VersioningType.HEADER, header: 'X-API-Version' }
    : { type: VersioningType.URI })
  await app.init()
  // Fastify finishes its routes at ready(), which listen() calls: an app
  // that a test serves without listen() (supertest on getHttpServer()) calls
  // it after init(), as NestJS's docs say for Fastify
  await app.getHttpAdapter().getInstance().ready()
  return app
}
