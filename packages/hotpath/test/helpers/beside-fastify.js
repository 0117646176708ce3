// A differential run: the same app built on real Fastify and on
// hotpath/fastify, the same requests sent to both, through inject() and over
// a real socket (Fastify on node:http; hotpath on each HTTP/1.1 engine), and
// each pair of answers handed back for the test to compare.
import { createRequire } from 'node:module'
import hotpathFastify from '../../lib/fastify.js'
import assert from 'node:assert/strict'
import { httpRequest } from './engines.js'

const require = createRequire(import.meta.url)
const Fastify = require('fastify')

/** inject, then hotpath over a socket on each HTTP/1.1 engine */
export const BESIDE_MODES = /** @type {const} */ (['inject', 'node', 'wire'])

/**
 * @typedef {{ statusCode: number, statusMessage?: string, headers: Record<string, any>, body: string }} Answer
 * @typedef {{ method?: string, url: string, headers?: Record<string, any>, payload?: any }} Ask
 */

/**
 * @param {(app: any) => void | Promise<void>} build
 * @param {Array<string | Ask>} requests
 * @param {{ modes?: readonly string[], options?: Record<string, any> }} [opts]
 * @returns {Promise<Array<{ mode: string, what: string, fastify: Answer, hotpath: Answer }>>}
 */
export async function besideFastify (build, requests, opts = {}) {
  const out = []
  for (const mode of opts.modes ?? BESIDE_MODES) {
    const fastify = Fastify(opts.options)
    const app = hotpathFastify({ ...opts.options, ...(mode === 'inject' ? {} : { engine: mode }) })
    try {
      await build(fastify)
      await build(app)
      const send = await client(fastify, mode)
      const sendOurs = await client(app, mode)
      for (const r of requests) {
        const ask = typeof r === 'string' ? { url: r } : r
        out.push({ mode, what: `${ask.method ?? 'GET'} ${ask.url} [${mode}]`, fastify: await send(ask), hotpath: await sendOurs(ask) })
      }
    } finally {
      await Promise.all([fastify.close(), app.close()])
    }
  }
  return out
}

/**
 * Asserts that hotpath answered each request as Fastify did: status, body
 * and the headers named.
 * @param {Array<{ what: string, fastify: Answer, hotpath: Answer }>} answers
 * @param {string[]} headers
 */
export function assertSameAnswers (answers, headers) {
  for (const { what, fastify, hotpath } of answers) {
    assert.equal(hotpath.statusCode, fastify.statusCode, what)
    for (const name of headers) assert.equal(hotpath.headers[name], fastify.headers[name], `${what}: ${name}`)
    assert.equal(hotpath.body, fastify.body, what)
  }
}

/**
 * @param {any} app
 * @param {string} mode
 * @returns {Promise<(ask: Ask) => Promise<Answer>>}
 */
async function client (app, mode) {
  if (mode === 'inject') {
    return async (ask) => {
      const res = await app.inject(ask)
      return { statusCode: res.statusCode, statusMessage: res.statusMessage, headers: res.headers, body: res.body }
    }
  }
  await app.listen({ port: 0, host: '127.0.0.1' })
  const port = app.server.address().port
  return async (ask) => {
    const res = await httpRequest(port, ask)
    return { statusCode: res.statusCode, statusMessage: res.statusMessage, headers: res.headers, body: res.body }
  }
}
