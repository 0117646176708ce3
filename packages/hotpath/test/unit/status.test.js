// The reason phrases hotpath writes are node:http's, for every status it
// names: an error from a library (@fastify/sensible's 506) reads the same on
// both engines and under inject.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { STATUS_CODES } from 'node:http'
import { statusText } from '../../lib/status.js'

test('every status node:http names has node:http\'s reason phrase', () => {
  const differ = Object.keys(STATUS_CODES).filter((code) => statusText(Number(code)) !== STATUS_CODES[code])
  assert.deepEqual(differ, [])
})

test('an unnamed status falls back to its class', () => {
  assert.equal(statusText(599), 'Internal Server Error')
  assert.equal(statusText(499), 'Bad Request')
})
