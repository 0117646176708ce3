import { test } from 'node:test'
import assert from 'node:assert/strict'
import https from 'node:https'
import { selfSigned } from '../helpers/tls.js'
import { eachMode, SOCKET_MODES } from '../helpers/engines.js'
import hotpath from '../../lib/index.js'

const tls = selfSigned()

// Off h2: node:https's client speaks HTTP/1.1; h2 over TLS (ALPN) is tested in
// test/h2.
eachMode('https', (mode) => {
  test('serves over TLS; req.protocol is https', { skip: tls === null ? 'openssl is not installed' : false }, async () => {
    const app = hotpath({ https: /** @type {any} */ (tls), engine: /** @type {any} */ (mode) })
    app.get('/', (req) => ({ protocol: req.protocol }))
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    try {
      assert.match(address, /^https:\/\//)
      const body = await new Promise((resolve, reject) => {
        https.get(address + '/', { rejectUnauthorized: false, agent: false }, (res) => {
          let data = ''
          res.on('data', (c) => { data += c })
          res.on('end', () => resolve(data))
        }).on('error', reject)
      })
      assert.deepEqual(JSON.parse(/** @type {string} */ (body)), { protocol: 'https' })
    } finally {
      await app.close()
    }
  })
}, SOCKET_MODES)
