// Loaded by commonjs.test.js: what a CommonJS application gets from
// require('hotpath') and require('hotpath/fastify').
'use strict'
const fastify = require('hotpath/fastify')
const hotpath = require('hotpath')

async function main () {
  const app = fastify()
  app.get('/', async () => ({ hello: 'cjs' }))
  const res = await app.inject('/')
  const plain = hotpath()
  plain.get('/', () => 'plain')
  const res2 = await plain.inject('/')
  process.stdout.write(JSON.stringify({
    fastifyType: typeof fastify,
    fastifyDefault: fastify.default === fastify,
    fastifyNamed: fastify.fastify === fastify,
    hotpathType: typeof hotpath,
    hotpathDefault: hotpath.default === hotpath,
    hotpathNamed: hotpath.hotpath === hotpath,
    plugin: typeof hotpath.plugin,
    HttpError: typeof hotpath.HttpError,
    errorCodes: fastify.errorCodes.FST_ERR_NOT_FOUND().code,
    body: res.json(),
    body2: res2.body
  }))
}
main()
