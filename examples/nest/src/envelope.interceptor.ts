import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Observable, map } from 'rxjs'

// Wraps what the handler returns in `{ data, path }` and sets a header on
// the reply.
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  intercept (context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp()
    const request = http.getRequest<FastifyRequest>()
    http.getResponse<FastifyReply>().header('x-envelope', 'yes')
    return next.handle().pipe(map((data) => ({ data, path: request.url })))
  }
}
