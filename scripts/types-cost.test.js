// What checking a schema-typed app costs tsc, counted in type
// instantiations: deterministic for one TypeScript, unlike time. The bounds
// lie far above the figures measured with the repository's TypeScript
// (numbers below: 5 to 20 times), so a new TypeScript passes, and below
// what a return of the 1.2-million cliff adds, so that does not.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { appSource, bodyRoute, checkProgram, fullRoute } from './types-app.js'

test('a route with a body schema and no response schema costs no one-time TypeBox variance computation', () => {
  // Measured (TS 7.0.2): 9,340 instantiations for 10 routes. When the
  // handler took part in inferring the schema, tsc related two unresolved
  // TypeBox Static types and computed StaticType's variance: 1.2 million
  // (2 s on TS 5.9).
  const r = checkProgram(appSource(10, bodyRoute))
  assert.deepEqual(r.errors, [])
  assert.ok(r.instantiations > 0, 'tsc reported its instantiations')
  assert.ok(r.instantiations < 120_000, `${r.instantiations} instantiations for 10 routes`)
})

for (const framework of /** @type {const} */ (['hotpath', 'hotpath/fastify'])) {
  test(`checking cost grows linearly with routes (${framework === 'hotpath' ? "import 'hotpath/typebox'" : "Fastify's TypeBox provider through withTypeProvider()"})`, () => {
    // Measured (TS 7.0.2): 49,000 instantiations for 20 routes (params,
    // query, body, three response schemas, a typed 404), 2,240 for each
    // route after; 182,800 and 2,430 through Fastify's provider (Fastify's
    // own types, a larger one-time cost). The one-time TypeBox variance
    // computation would add 1.2 million.
    const at20 = checkProgram(appSource(20, fullRoute, framework))
    const at40 = checkProgram(appSource(40, fullRoute, framework))
    assert.deepEqual([...at20.errors, ...at40.errors], [])
    assert.ok(at20.instantiations < 900_000, `${at20.instantiations} instantiations for 20 routes`)
    const perRoute = (at40.instantiations - at20.instantiations) / 20
    assert.ok(perRoute < 42_000, `${perRoute} instantiations a route`)
    const firstRoutes = at20.instantiations / 20
    assert.ok(perRoute < firstRoutes * 1.5, `the 21st to 40th routes cost ${perRoute} each, the first 20 ${firstRoutes}`)
  })
}
