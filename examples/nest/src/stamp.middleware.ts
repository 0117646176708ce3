import { ForbiddenException, Injectable, NestMiddleware } from '@nestjs/common'
import type { IncomingMessage, ServerResponse } from 'node:http'

// Nest middleware runs on Node's request and response (through
// @fastify/middie): it stamps the response, and answers a request carrying
// `x-stop` itself, and throws for `x-stop: throw` (Nest answers that one
// through a Fastify reply it makes around Node's response).
@Injectable()
export class StampMiddleware implements NestMiddleware {
  use (req: IncomingMessage, res: ServerResponse, next: () => void): void {
    res.setHeader('x-stamp', 'cats')
    if (req.headers['x-stop'] === 'throw') {
      throw new ForbiddenException('middleware said no')
    }
    if (req.headers['x-stop'] !== undefined) {
      res.statusCode = 429
      res.setHeader('content-type', 'text/plain')
      res.end('stopped by middleware')
      return
    }
    next()
  }
}
