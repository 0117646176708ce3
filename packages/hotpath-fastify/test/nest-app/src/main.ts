// A NestJS application on @nestjs/platform-fastify whose adapter makes its
// own instance (require('fastify') inside the adapter), and an instance the
// application makes itself with Fastify's types; prints what it answers.
import 'reflect-metadata'
import { Body, Controller, ForbiddenException, Get, MiddlewareConsumer, Module, NestMiddleware, NestModule, Param, ParseIntPipe, Post, StreamableFile } from '@nestjs/common'
import { NestFactory } from '@nestjs/core'
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify'
import Fastify, { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { Readable } from 'node:stream'

@Controller('cats')
class CatsController {
  @Get(':id') one (@Param('id', ParseIntPipe) id: number) { return { id } }
  @Post() create (@Body() body: { name: string }) { return { created: body.name } }
  @Get('file/text') file () { return new StreamableFile(Readable.from(['a', 'b']), { type: 'text/plain', length: 2 }) }
}

// Nest answers an exception thrown in its middleware through
// fastify/lib/reply around Node's response
class Deny implements NestMiddleware {
  use (_req: unknown, _res: unknown, _next: () => void) { throw new ForbiddenException('no') }
}

@Module({ controllers: [CatsController] })
class AppModule implements NestModule {
  configure (consumer: MiddlewareConsumer) { consumer.apply(Deny).forRoutes('cats/7') }
}

async function main () {
  const own: FastifyInstance = Fastify()
  own.get('/', async (_req: FastifyRequest, reply: FastifyReply) => reply.send({ ok: true }))
  const ownAnswer = await own.inject('/')
  await own.close()

  const app = await NestFactory.create<NestFastifyApplication>(AppModule, new FastifyAdapter(), { logger: false })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const url = await app.getUrl()
  const instance = app.getHttpAdapter().getInstance() as unknown as Record<string, unknown>
  const answers: Record<string, unknown> = { own: [ownAnswer.statusCode, ownAnswer.body] }
  const asks: [string, string, string?][] = [['GET', '/cats/3'], ['GET', '/cats/x'], ['GET', '/cats/7'], ['GET', '/nope'],
    ['POST', '/cats', '{"name":"Tom"}'], ['POST', '/cats', '{bad'], ['GET', '/cats/file/text']]
  for (const [method, path, body] of asks) {
    const res = await fetch(url + path, { method, body, headers: body ? { 'content-type': 'application/json' } : {} })
    answers[`${method} ${path} ${body ?? ''}`] = [res.status, res.headers.get('content-type'), await res.text()]
  }
  await app.close()
  console.log(JSON.stringify({ framework: '_core' in instance ? 'hotpath' : 'fastify', answers }))
}

main()
