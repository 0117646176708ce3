// The Host rule (lib/engines/host.js) remembers the last value it found
// valid: a value that is not valid is refused whatever came before it,
// and the answer for each value is the same on every call, in any order.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { isValidHost } from '../../lib/engines/host.js'

const VALID = ['localhost', 'localhost:3000', '127.0.0.1:3000', '[::1]:3000', '[v1.fe]', 'a.example.com:', 'xn--bcher-kva.example', '%41b']
const INVALID = ['', 'a b', 'a/b', 'user@host', 'a,b', 'host:port', '[::1', 'a\tb', 'é.example', '%4', 'localhost:3000 ', ' localhost']

test('each value gets the same answer on every call, in any order of valid and invalid ones', () => {
  const expected = new Map([...VALID.map((v) => [v, true]), ...INVALID.map((v) => [v, false])])
  const values = [...expected.keys()]
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < values.length; i++) {
      // each value right after every other one, the remembered one included
      for (const before of values) {
        isValidHost(before)
        const value = values[(i + round) % values.length]
        assert.equal(isValidHost(value), expected.get(value), `${JSON.stringify(value)} after ${JSON.stringify(before)}`)
      }
    }
  }
})

test('an invalid value right after the same value made valid by one character is refused', () => {
  assert.equal(isValidHost('example.com:8080'), true)
  assert.equal(isValidHost('example.com:8080/'), false)
  assert.equal(isValidHost('example.com:8080'), true)
  assert.equal(isValidHost('example.com:808 '), false)
})
