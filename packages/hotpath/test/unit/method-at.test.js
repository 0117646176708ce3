// The parser names the method of a request line in place for the usual
// ones and through the table for the rest (lib/engines/wire/syntax.js,
// methodAt): every method llhttp knows is found, exactly as spelled, and
// nothing else (methods are case-sensitive, RFC 9110 §9.1).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { methodAt, METHODS } from '../../lib/engines/wire/syntax.js'

/** @param {string} method */
const inLine = (method) => {
  const line = `x ${method} / HTTP/1.1`
  return methodAt(line, 2, 2 + method.length)
}

test('every known method is found', () => {
  for (const method of METHODS.keys()) assert.equal(inLine(method), method)
})

test('other spellings and near misses are none', () => {
  for (const method of ['get', 'Get', 'post', 'GETS', 'GE', 'PUTT', 'POSTX', 'HEAD ', 'PATCh', 'DELETe', 'OPTION', 'OPTIONZ', 'BREW', '']) {
    assert.equal(inLine(method), undefined, JSON.stringify(method))
  }
})
