import hotpath from 'hotpath'
import type { InjectResponse } from 'hotpath'
import { expectTypeOf } from './helpers.js'

const app = hotpath()

async function run () {
  const a = await app.inject('/hello')
  expectTypeOf(a.statusCode).toBe<number>()
  expectTypeOf(a.body).toBe<string>()
  expectTypeOf(a.rawPayload).toBe<Buffer>()
  const data = a.json<{ hello: string }>()
  expectTypeOf(data.hello).toBe<string>()
  void a.headers['content-type']

  const b: InjectResponse = await app.inject({
    method: 'POST',
    url: '/books',
    query: { page: 2, tag: ['a', 'b'] },
    headers: { 'content-type': 'application/json', 'x-n': 1 },
    payload: { title: 'Dune' }
  })
  void b
  await app.inject({ method: 'put', url: '/raw', payload: Buffer.from('x') })
  await app.inject({ url: '/q', query: 'a=1&b=2' })

  // @ts-expect-error an unknown method
  await app.inject({ method: 'BREW', url: '/' })
  // @ts-expect-error the url is a string
  await app.inject({ url: 1 })
  // @ts-expect-error statusCode is a number
  const s: string = a.statusCode
  void s
}
void run

async function more () {
  const r = await app.inject({ path: '/a', body: 'x', remoteAddress: '10.0.0.1' })
  expectTypeOf(r.statusMessage).toBe<string>()
  expectTypeOf(r.payload).toBe<string>()
  expectTypeOf(r.headers['content-length']).toBe<string | number | string[]>()
}
void more
