import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common'
import type { FastifyReply, FastifyRequest } from 'fastify'

export class TeapotError extends Error {
  constructor (readonly flavour: string) {
    super(`no ${flavour} here`)
  }
}

// Answers a TeapotError with 418 and a body of its own.
@Catch(TeapotError)
export class TeapotFilter implements ExceptionFilter {
  catch (error: TeapotError, host: ArgumentsHost): void {
    const http = host.switchToHttp()
    const request = http.getRequest<FastifyRequest>()
    http.getResponse<FastifyReply>()
      .status(418)
      .header('x-filter', 'teapot')
      .send({ error: error.message, flavour: error.flavour, method: request.method })
  }
}
