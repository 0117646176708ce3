// The app the crash hunt serves (in the server process, ./server.js):
// routes with every hook kind, and hooks, handlers and middleware that each
// do what the request's x-plan header says (see generateRequest in
// ./cases.js); a broken hook invariant is reported over IPC.

import { Readable, Transform, PassThrough, pipeline } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import { APP_OPTIONS, HOOKS, PAYLOAD_HOOKS, OBSERVERS } from './cases.js'

/** @param {any} req */
function planOf (req) {
  if (req._chaosPlan !== undefined) return req._chaosPlan
  /** @type {Record<string, string>} */
  const plan = {}
  const h = req.headers['x-plan']
  if (typeof h === 'string') {
    for (const part of h.split(';')) {
      const eq = part.indexOf('=')
      if (eq > 0) plan[part.slice(0, eq)] = part.slice(eq + 1)
    }
  }
  req._chaosPlan = plan
  return plan
}

/** @param {string} what @param {any} req */
function violation (what, req) {
  process.send?.({ type: 'violation', what, caseId: String(req.headers['x-case'] ?? '?') })
}

const secret = () => new Error('chaos-secret')

/** @param {string} name */
function lifecycleHook (name) {
  /** @param {any} req @param {any} reply */
  return function (req, reply) {
    switch (planOf(req)[name]) {
      case 'a': return Promise.resolve()
      case 'd': return sleep(20)
      case 't': throw secret()
      case 'r': return Promise.reject(secret())
      case 'x': reply.code(200).send({ from: name }); return
      case 'y': return sleep(5).then(() => { reply.code(200).send({ from: name }) })
    }
  }
}

/** @param {string} name */
function payloadHook (name) {
  /** @param {any} req @param {any} reply @param {any} payload */
  return function (req, reply, payload) {
    switch (planOf(req)[name]) {
      case 'a': return Promise.resolve(payload)
      case 't': throw secret()
      case 'r': return Promise.reject(secret())
      case 'm': return name === 'onSend' ? 'replaced' : { wrapped: true }
      default: return payload
    }
  }
}

/** @param {string} name */
function observer (name) {
  /** @param {any} req */
  return function (req) {
    if (name === 'onResponse' || name === 'onRequestAbort') {
      req._chaosFinal = (req._chaosFinal ?? 0) + 1
      if (req._chaosFinal > 1) violation(`onResponse/onRequestAbort ran ${req._chaosFinal} times (last: ${name})`, req)
    } else if (name === 'onTimeout') {
      req._chaosTimeouts = (req._chaosTimeouts ?? 0) + 1
      if (req._chaosTimeouts > 1) violation('onTimeout ran twice', req)
    }
    switch (planOf(req)[name]) {
      case 'a': return Promise.resolve()
      case 't': throw secret()
      case 'r': return Promise.reject(secret())
    }
  }
}

/** @param {any} req @param {any} _reply @param {import('node:stream').Readable} payload */
function preParsing (req, _reply, payload) {
  switch (planOf(req).preParsing) {
    case 'a': return Promise.resolve(payload)
    case 'd': return sleep(100).then(() => payload)
    // user code often uses pipe(), which forwards neither errors nor an abort
    case 'T': return payload.pipe(new Transform({ transform (chunk, _enc, cb) { cb(null, chunk) } }))
    case 'P': {
      const t = new PassThrough()
      pipeline(payload, t, () => {})
      return t
    }
    // replaces the body and never reads the request's own
    case 'R': return Readable.from([Buffer.from('{"r":1}')])
    case 't': throw secret()
    case 'r': return Promise.reject(secret())
    default: return payload
  }
}

/** @param {any} body */
function bodyLength (body) {
  if (body === undefined || body === null) return 0
  if (typeof body === 'string' || Buffer.isBuffer(body)) return body.length
  return JSON.stringify(body).length
}

/** A Node stream that pushes `n` chunks `ms` apart, then ends or fails. */
/** @param {number} n @param {number} ms @param {boolean} fail */
function slowStream (n, ms, fail) {
  /** @type {NodeJS.Timeout | null} */
  let timer = null
  let sent = 0
  return new Readable({
    read () {
      if (timer !== null) return
      timer = setTimeout(() => {
        timer = null
        if (fail && sent === 1) { this.destroy(secret()); return }
        this.push(Buffer.alloc(4096, 97))
        if (++sent === n) this.push(null)
      }, ms)
    },
    destroy (err, cb) {
      if (timer !== null) clearTimeout(timer)
      cb(err)
    }
  })
}

/** @param {number} n @param {number} ms @param {boolean} fail */
function webStream (n, ms, fail) {
  let sent = 0
  return new ReadableStream({
    async pull (controller) {
      if (ms > 0) await sleep(ms)
      if (fail && sent === 1) { controller.error(secret()); return }
      controller.enqueue(new Uint8Array(4096).fill(98))
      if (++sent === n) controller.close()
    }
  })
}

/** @param {any} req @param {any} reply */
function handler (req, reply) {
  switch (planOf(req).handler) {
    case 'text': reply.type('text/plain'); return 'hello chaos'
    case 'buf': reply.type('application/octet-stream'); return Buffer.alloc(1000, 99)
    case 'big': reply.type('text/plain'); return 'x'.repeat(300_000)
    case 'async': return sleep(10).then(() => ({ n: bodyLength(req.body) }))
    case 'delay': return sleep(200).then(() => ({ n: bodyLength(req.body) }))
    case 'throw': throw secret()
    case 'reject': return Promise.reject(secret())
    case 'rejnon': return Promise.reject('chaos-secret') // eslint-disable-line prefer-promise-reject-errors
    case 'undef': return Promise.resolve(undefined)
    case 'stream': return Readable.from([Buffer.from('a'), Buffer.from('b'), Buffer.from('c')])
    case 'slow': return slowStream(10, 20, false)
    case 'errpre': return new Readable({ read () { this.destroy(secret()) } })
    case 'errpost': return slowStream(10, 10, true)
    case 'web': return webStream(3, 0, false)
    case 'webslow': return webStream(10, 20, false)
    case 'weberr': return webStream(10, 10, true)
    case 'never': return reply
    case 'late': setTimeout(() => reply.send({ late: true }), 30); return
    case 'twice': reply.send('one'); reply.send('two'); return reply
    case 'signal': {
      const signal = req.signal
      return new Promise((resolve) => {
        const t = setTimeout(resolve, 300, { waited: true })
        signal.addEventListener('abort', () => { clearTimeout(t); resolve({ aborted: true }) }, { once: true })
      })
    }
    case 'nocontent': reply.code(204); return null
    default: return { n: bodyLength(req.body) }
  }
}

/** @param {any} req @param {any} res @param {(err?: unknown) => void} next */
function chaosMiddleware (req, res, next) {
  switch (planOf(req).mw) {
    case 'a': setImmediate(next); return
    case 'h': res.setHeader('x-mw', '1'); next(); return
    case 'e': res.statusCode = 200; res.setHeader('content-type', 'text/plain'); res.end('from middleware'); return
    case 'w': res.statusCode = 200; res.write('part '); setTimeout(() => res.end('rest'), 10); return
    case 'E': next(secret()); return
    case 'T': throw secret()
    default: next()
  }
}

/** @param {string} mode @param {string} staticRoot */
export async function buildApp (mode, staticRoot) {
  const { default: hotpath } = await import('../../../lib/index.js')
  // @ts-ignore no types installed
  const { default: cors } = await import('cors')
  const { default: helmet } = await import('helmet')
  // @ts-ignore no types installed
  const { default: serveStatic } = await import('serve-static')
  const app = hotpath({
    ...APP_OPTIONS,
    ...(mode === 'inject' ? {} : { engine: mode }),
    // logging on, into a sink: the log calls on error and abort paths run too
    logger: { level: 'info', stream: { write () {} } }
  })
  /** @type {Record<string, any>} */
  const all = { preParsing }
  for (const h of HOOKS) all[h] = lifecycleHook(h)
  for (const h of PAYLOAD_HOOKS) all[h] = payloadHook(h)
  for (const h of OBSERVERS) all[h] = observer(h)
  const { preParsing: _, ...noPreParsing } = all
  app.get('/health', () => 'ok')
  app.all('/bare', handler)
  app.all('/hooks', all, handler)
  app.all('/nopp', noPreParsing, handler)
  app.register(async (/** @type {any} */ mw) => {
    mw.use(cors())
    mw.use(helmet())
    mw.use(chaosMiddleware)
    mw.all('/hooks', all, handler)
    mw.all('/bare', handler)
  }, { prefix: '/mw' })
  app.register(async (/** @type {any} */ st) => {
    st.use(serveStatic(staticRoot))
    st.all('/*', handler)
  }, { prefix: '/static' })
  return app
}
