// A hook typed for any route (HotpathRequest and HotpathReply without a
// generic) is accepted on a route whose schema types its request, alone or
// in a list, and the route's handler keeps its inferred types.
import 'hotpath/typebox'
import hotpath from 'hotpath'
import type { HotpathRequest, HotpathReply } from 'hotpath'
import Type from 'typebox'
import { expectTypeOf } from '../../helpers.js'

const app = hotpath()
const audit = (req: HotpathRequest, reply: HotpathReply) => { req.log.info({ url: req.url, id: req.params.id }); void reply }
const auditAsync = async (req: HotpathRequest) => { req.log.info({ body: req.body }) }

app.get('/audited/:id', { schema: { params: Type.Object({ id: Type.Integer() }) }, preHandler: audit }, (req) => {
  expectTypeOf(req.params.id).toBe<number>()
  return req.params.id
})
app.post('/b', { schema: { body: Type.Object({ id: Type.Integer() }), response: { 200: Type.Integer() } }, onRequest: [audit, auditAsync], preHandler: [(req) => { expectTypeOf(req.body.id).toBe<number>() }, audit] }, (req) => {
  expectTypeOf(req.body.id).toBe<number>()
  return req.body.id
})
app.addHook('preHandler', audit)
app.get<{ Params: { n: number } }>('/generic/:n', { preHandler: audit }, (req) => req.params.n)

// a hook typed for another route's body is refused
const wrongBody = (req: HotpathRequest<{ Body: { name: string } }>) => { void req.body.name }
// @ts-expect-error this hook expects a body with a name, the route's has an id
app.post('/c', { schema: { body: Type.Object({ id: Type.Integer() }) }, preHandler: wrongBody }, () => 'x')
