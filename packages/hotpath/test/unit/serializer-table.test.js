import { test } from 'node:test'
import assert from 'node:assert/strict'
import { pickSerializer, serializerTable } from '../../lib/routing/schema.js'
import hotpath from '../../lib/index.js'

test('the precomputed serializer table picks what pickSerializer picks, for every status', () => {
  const fn = (/** @type {string} */ name) => Object.assign(() => name, { label: name })
  const maps = [
    new Map([['200', fn('200')]]),
    new Map([['201', fn('201')], ['4xx', fn('4xx')], ['default', fn('default')]]),
    new Map([['2xx', fn('2xx')], ['404', fn('404')], ['5xx', fn('5xx')]]),
    new Map([['default', fn('default')]]),
    new Map()
  ]
  for (const map of maps) {
    const { exact, byClass } = serializerTable(map)
    for (let status = 100; status <= 599; status++) {
      const got = exact.get(status) ?? byClass[(status / 100) | 0] ?? null
      assert.equal(got, pickSerializer(map, status), `${[...map.keys()]} ${status}`)
    }
  }
})

test('responses are serialized by the exact status, then its class, then default', async () => {
  const app = hotpath()
  const only = (/** @type {string} */ key) => ({ type: 'object', properties: { [key]: { type: 'string' } } })
  app.get('/:status', {
    schema: { response: { 201: only('exact'), '4xx': only('klass'), default: only('fallback') } }
  }, (req, reply) => reply.code(Number(req.params.status)).send({ exact: 'e', klass: 'k', fallback: 'f', other: 'o' }))
  assert.deepEqual((await app.inject('/201')).json(), { exact: 'e' })
  assert.deepEqual((await app.inject('/418')).json(), { klass: 'k' })
  assert.deepEqual((await app.inject('/202')).json(), { fallback: 'f' })
  assert.deepEqual((await app.inject('/503')).json(), { fallback: 'f' })
})
