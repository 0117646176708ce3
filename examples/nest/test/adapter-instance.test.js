'use strict'
// The application as a NestJS project written for Fastify has it: the
// adapter makes its own instance, with require('fastify'). Run as it is,
// that is Fastify; run by `hotpath check` (or with hotpath-fastify installed
// as `fastify`), hotpath/fastify. Each request of cases.js, over HTTP and
// through inject(), must answer its status and what CHECKS asks: a test per
// request, so that a check lists each one that differs.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const request = require('supertest')
const { createApp } = require('./helpers.js')
const { CASES, CHECKS } = require('./cases.js')

async function overHttp (app, c) {
  let req = request(app.getHttpServer())[c.method.toLowerCase()](c.url)
  for (const [name, value] of Object.entries(c.headers ?? {})) req = req.set(name, value)
  if (c.body !== undefined) req = req.send(c.body)
  const res = await req
  return { status: res.status, headers: res.headers, body: res.text ?? '' }
}

async function injected (app, c) {
  const res = await app.inject({ method: c.method, url: c.url, headers: c.headers, payload: c.body })
  return { status: res.statusCode, headers: res.headers, body: res.body }
}

for (const [over, send] of [['http', overHttp], ['inject', injected]]) {
  test(`the adapter makes its own instance from \`fastify\` [${over}]`, async (t) => {
    const app = await createApp({ adapterMakesInstance: true })
    t.after(() => app.close())
    const instance = app.getHttpAdapter().getInstance()
    assert.equal('_core' in instance, Boolean(process.env.HOTPATH_ENGINE), 'hotpath exactly when the run puts it in Fastify\'s place')
    for (const c of CASES) {
      await t.test(c.name, async () => {
        const answer = await send(app, c)
        const status = over === 'inject' ? c.injectStatus ?? c.status : c.status
        assert.equal(answer.status, status, answer.body)
        if (status === c.status) CHECKS[c.name]?.(answer, c)
      })
    }
  })
}
