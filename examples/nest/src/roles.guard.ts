import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common'
import type { FastifyRequest } from 'fastify'

// Lets a request through when its `x-role` header is `admin`; Nest answers
// 403 otherwise.
@Injectable()
export class RolesGuard implements CanActivate {
  canActivate (context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>()
    return request.headers['x-role'] === 'admin'
  }
}
