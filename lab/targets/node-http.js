// Raw node:http: the baseline every ratio is measured against. Only what the
// scenario needs, written the way a careful hand-rolled server would be.

import http from 'node:http'
import { kind, port, host, payload, decoyRoutes, paramsRoute, validateBody, invalidBody, echoOf, readJson, delay1ms, unsupported, ready } from './common.js'

const JSON_CT = 'application/json; charset=utf-8'

function send (res, status, body, type = JSON_CT) {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) })
  res.end(body)
}

// A small router for `params`: routes indexed by segment count and first
// segment, then matched segment by segment (what a hand-rolled server does).
function compileRoutes (patterns) {
  const table = new Map()
  for (const pattern of patterns) {
    const segs = pattern.split('/').slice(1)
    const key = segs.length + segs[0]
    if (!table.has(key)) table.set(key, [])
    table.get(key).push({ pattern, segs })
  }
  return (path) => {
    const parts = path.split('/').slice(1)
    const list = table.get(parts.length + parts[0])
    if (!list) return null
    outer: for (const r of list) {
      const params = {}
      for (let i = 0; i < parts.length; i++) {
        const s = r.segs[i]
        if (s[0] === ':') params[s.slice(1)] = parts[i]
        else if (s !== parts[i]) continue outer
      }
      return { pattern: r.pattern, params }
    }
    return null
  }
}

let handler
switch (kind) {
  case 'hello':
    handler = (req, res) => send(res, 200, JSON.stringify({ hello: 'world' }))
    break
  case 'params': {
    const match = compileRoutes([...decoyRoutes, paramsRoute])
    handler = (req, res) => {
      const q = req.url.indexOf('?')
      const m = match(q === -1 ? req.url : req.url.slice(0, q))
      if (m === null) return send(res, 404, '{"statusCode":404}')
      if (m.pattern === paramsRoute) send(res, 200, JSON.stringify({ user: m.params.id, post: m.params.post }))
      else send(res, 200, JSON.stringify({ route: m.pattern }))
    }
    break
  }
  case 'json-post':
    handler = async (req, res) => {
      if (req.method !== 'POST' || req.url !== '/echo') return send(res, 404, '{"statusCode":404}')
      const body = await readJson(req)
      if (body === undefined) return send(res, 400, JSON.stringify({ statusCode: 400, error: 'Bad Request', message: 'invalid JSON' }))
      if (!validateBody(body)) return send(res, 400, JSON.stringify(invalidBody(validateBody.errors)))
      send(res, 200, JSON.stringify(echoOf(body)))
    }
    break
  case 'delay-1ms':
    handler = async (req, res) => {
      await delay1ms()
      send(res, 200, JSON.stringify({ hello: 'world' }))
    }
    break
  case 'payload':
    handler = (req, res) => send(res, 200, payload, 'text/plain; charset=utf-8')
    break
  case 'hooks': {
    // Two sync steps and one async step before the handler, as plain calls.
    const one = (req) => { req.a = 1 }
    const two = (req) => { req.b = 2 }
    const three = async (req) => { req.c = 3 }
    handler = async (req, res) => {
      one(req); two(req); await three(req)
      send(res, 200, JSON.stringify({ a: req.a, b: req.b, c: req.c }))
    }
    break
  }
  default: unsupported()
}

http.createServer(handler).listen(port, host, () => ready('node-http'))
