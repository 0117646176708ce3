// The wire writer keeps the lines of header values it has checked
// (lib/engines/wire/writer.js, goodLines): what it writes must not depend on
// what it remembers. Every value is still checked the first time it is seen,
// a name whose values keep changing stops being remembered, and a latin1
// value comes out as itself.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { headerLines } from '../../lib/engines/wire/writer.js'

test('a constant value gives the same line each time', () => {
  for (let i = 0; i < 3; i++) {
    assert.equal(headerLines({ 'x-constant': 'same value' }, null), 'x-constant: same value\r\n')
  }
})

test('a name with ever-changing values gets each its own line, and refuses a bad one at any point', () => {
  for (let i = 0; i < 100; i++) {
    assert.equal(headerLines({ 'x-remaining': String(i) }, null), `x-remaining: ${i}\r\n`)
    if (i === 3 || i === 50) {
      assert.throws(() => headerLines({ 'x-remaining': `${i}\r\nx-injected: 1` }, null), { code: 'ERR_INVALID_CHAR' })
    }
  }
  // values seen while it was remembered still come out right
  assert.equal(headerLines({ 'x-remaining': '7' }, null), 'x-remaining: 7\r\n')
})

test('a latin1 value is written as such, seen once or many times; the same value under another name too', () => {
  for (let i = 0; i < 3; i++) {
    assert.equal(headerLines({ 'x-latin1': 'caf\xe9' }, null), 'x-latin1: caf\xe9\r\n')
    assert.equal(headerLines({ 'x-ascii': 'cafe' }, null), 'x-ascii: cafe\r\n')
  }
  assert.equal(headerLines({ 'x-other': 'same value' }, null), 'x-other: same value\r\n')
})

test('a long value is checked on every use', () => {
  const long = 'a'.repeat(300)
  for (let i = 0; i < 3; i++) assert.equal(headerLines({ 'x-long': long }, null), `x-long: ${long}\r\n`)
  assert.throws(() => headerLines({ 'x-long': long + '\n' }, null), { code: 'ERR_INVALID_CHAR' })
})
