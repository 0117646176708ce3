// A body a middleware has read (express.json(), express.urlencoded(), or
// any middleware that reads the request stream to its end) is not read
// again: the route gets what the middleware parsed, or no body, at once,
// where it used to wait for a body that would never come until the request
// timeout answered 503. On wire and under inject, middleware reads the body
// through the compat request, a Readable of it.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import { once } from 'node:events'
import { setTimeout as sleep } from 'node:timers/promises'
import express from 'express'
import { eachMode, setup, LISTENING_MODES } from '../helpers/engines.js'

/** @type {Error[]} */
const uncaught = []
process.on('uncaughtException', (err) => { uncaught.push(err) })

eachMode('bodies read by middleware', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {string[]} */
  const parsersRun = []
  before(async () => {
    s = await setup(mode, (app) => {
      app.register(async (api) => {
        api.use(express.json())
        api.use(express.urlencoded({ extended: false }))
        api.addContentTypeParser('application/json', (_req, /** @type {string} */ body) => { parsersRun.push('json'); return JSON.parse(body) })
        api.post('/echo', (req) => ({ body: req.body }))
      }, { prefix: '/mw' })
      app.register(async (api) => {
        // reads the stream to its end and sets nothing
        api.use((/** @type {any} */ req, /** @type {any} */ _res, /** @type {Function} */ next) => {
          req.on('data', () => {})
          req.on('end', () => next())
        })
        api.post('/drained', (req) => ({ body: req.body === undefined ? 'none' : req.body }))
      }, { prefix: '/raw' })
    // waiting for a body already read would end in this timeout's 503
    }, { requestTimeout: 5000 })
  })
  after(() => s.close())

  test("express.json(): the route gets the middleware's body, the route's parser does not run", async () => {
    const res = await s.request({ method: 'POST', url: '/mw/echo', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ a: 1, list: [1, 2] }) })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { body: { a: 1, list: [1, 2] } })
    assert.deepEqual(parsersRun, [])
  })

  test('express.urlencoded(): a form body, which hotpath itself would also parse, comes from the middleware', async () => {
    const res = await s.request({ method: 'POST', url: '/mw/echo', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'name=ada&lang=en' })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { body: { name: 'ada', lang: 'en' } })
  })

  test('a middleware that drained the stream: the route runs with no body', async () => {
    const res = await s.request({ method: 'POST', url: '/raw/drained', headers: { 'content-type': 'application/json' }, payload: '{"a":1}' })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { body: 'none' })
  })
})

eachMode('a client that leaves while a middleware reads the body', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  let closed = 0
  before(async () => {
    s = await setup(mode, (app) => {
      app.get('/', () => 'alive')
      app.register(async (api) => {
        // listens for data and end only, as many hand-written ones do
        api.use((/** @type {any} */ req, /** @type {any} */ _res, /** @type {Function} */ next) => {
          req.on('data', () => {})
          req.on('close', () => { closed++ })
          req.on('end', () => next())
        })
        api.post('/x', () => 'never')
      }, { prefix: '/read' })
    })
  })
  after(() => s.close())

  test("costs that request only: no 'error' nobody listens for, 'close' is told, the process answers on", async () => {
    // HTTP/1.1: the client closes its connection; HTTP/2: it resets the stream
    let leave
    if (s.h2 !== null) leave = s.h2.start({ method: 'POST', url: '/read/x', headers: { 'content-type': 'text/plain', 'content-length': '1000' }, body: 'abc' }).leave
    else {
      const socket = net.connect(s.port, '127.0.0.1')
      socket.on('error', () => {})
      await once(socket, 'connect')
      socket.write('POST /read/x HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\nabc')
      leave = () => socket.destroy()
    }
    await sleep(100)
    leave()
    for (let i = 0; i < 100 && closed === 0; i++) await sleep(10)
    assert.equal(closed, 1)
    assert.deepEqual(uncaught, [])
    assert.equal((await s.request('/')).body, 'alive')
  })
}, LISTENING_MODES)
