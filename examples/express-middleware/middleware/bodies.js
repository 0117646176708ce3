// body-parser and Express's own express.json()/express.urlencoded(), each on
// its own path under /parse. What a body parser leaves as req.body is the
// route's req.body: hotpath does not read the body a second time.
import bodyParser from 'body-parser'
import express from 'express'

/** @param {import('hotpath').HotpathInstance} app */
export function bodies (app) {
  app.register(async (api) => {
    // a small limit, so that the test can show body-parser's own 413
    api.use('/json', bodyParser.json({ limit: '2kb' }))
    api.use('/form', bodyParser.urlencoded({ extended: true }))
    api.use('/raw', bodyParser.raw({ type: 'application/octet-stream' }))
    // text/csv: a type hotpath has no parser for, so a 200 proves that the
    // middleware, not hotpath, read the body
    api.use('/text', bodyParser.text({ type: 'text/csv' }))
    api.use('/express-json', express.json())
    api.use('/express-form', express.urlencoded({ extended: false }))

    const echo = (/** @type {any} */ req) => ({ body: req.body })
    for (const path of ['/json', '/form', '/text', '/express-json', '/express-form']) api.post(path, echo)
    api.post('/raw', (req) => {
      const body = /** @type {unknown} */ (req.body)
      return { isBuffer: Buffer.isBuffer(body), hex: Buffer.isBuffer(body) ? body.toString('hex') : null }
    })
  }, { prefix: '/parse' })
}
