import {
  Body, Controller, Get, Header, HttpCode, NotFoundException, Param, ParseIntPipe, Post, Query,
  RawBodyRequest, Req, Sse, StreamableFile, UseFilters, UseGuards, UseInterceptors, MessageEvent
} from '@nestjs/common'
import type { FastifyRequest } from 'fastify'
import { createHash } from 'node:crypto'
import { createReadStream, statSync } from 'node:fs'
import { join } from 'node:path'
import { Observable, interval, map, take } from 'rxjs'
import { CreateCatDto, ListCatsQuery } from './cats.dto'
import { Cat, CatsService } from './cats.service'
import { EnvelopeInterceptor } from './envelope.interceptor'
import { RolesGuard } from './roles.guard'
import { TeapotError, TeapotFilter } from './teapot.filter'

const helloFile = join(__dirname, '..', 'files', 'hello.txt')

@Controller('cats')
export class CatsController {
  constructor (private readonly cats: CatsService) {}

  @Get()
  list (@Query() query: ListCatsQuery): Cat[] {
    return this.cats.list(query.limit)
  }

  @Get('health')
  health (): { ok: boolean } {
    return { ok: true }
  }

  @Get('admin')
  @UseGuards(RolesGuard)
  admin (): { secret: string } {
    return { secret: 'catnip' }
  }

  @Get('wrapped')
  @UseInterceptors(EnvelopeInterceptor)
  wrapped (@Query('name') name = 'world'): string {
    return `hello ${name}`
  }

  @Get('teapot')
  @UseFilters(TeapotFilter)
  teapot (): never {
    throw new TeapotError('coffee')
  }

  @Get('crash')
  crash (): never {
    throw new Error('an internal detail')
  }

  @Get('file')
  file (): StreamableFile {
    return new StreamableFile(createReadStream(helloFile), {
      type: 'text/plain; charset=utf-8',
      disposition: 'attachment; filename="hello.txt"',
      length: statSync(helloFile).size
    })
  }

  @Sse('events')
  events (@Query('count', ParseIntPipe) count: number): Observable<MessageEvent> {
    return interval(1).pipe(take(count), map((n) => ({ data: { n }, id: String(n), type: 'tick' })))
  }

  @Post('raw')
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  raw (@Req() req: RawBodyRequest<FastifyRequest>, @Body() body: unknown): { length: number, sha256: string, body: unknown } {
    const raw = req.rawBody ?? Buffer.alloc(0)
    return { length: raw.length, sha256: createHash('sha256').update(raw).digest('hex'), body }
  }

  @Get(':id')
  one (@Param('id', ParseIntPipe) id: number): Cat {
    const cat = this.cats.find(id)
    if (cat === undefined) throw new NotFoundException(`cat ${id} not found`)
    return cat
  }

  @Post()
  create (@Body() dto: CreateCatDto): Cat {
    return this.cats.create(dto)
  }
}
