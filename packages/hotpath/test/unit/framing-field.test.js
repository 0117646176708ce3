// The parser recognises the fields it acts on (framing, Host, Connection,
// Upgrade, Expect) by comparing codes in place, without regard to case
// (RFC 9110 §5.1). Every spelling must be found, and no other token.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { framingField, F_OTHER, F_CONTENT_LENGTH, F_TRANSFER_ENCODING, F_HOST, F_CONNECTION, F_UPGRADE, F_EXPECT } from '../../lib/engines/wire/syntax.js'

/** @param {string} name */
const field = (name) => {
  // the name inside a head line, as the parser sees it
  const line = `x-before: 1\r\n${name}: v\r\n`
  const from = line.indexOf('\n') + 1
  return framingField(line, from, from + name.length)
}

test('each framing field, in any case', () => {
  const names = { 'content-length': F_CONTENT_LENGTH, 'transfer-encoding': F_TRANSFER_ENCODING, host: F_HOST, connection: F_CONNECTION, upgrade: F_UPGRADE, expect: F_EXPECT }
  for (const [name, code] of Object.entries(names)) {
    const title = name.replace(/(^|-)[a-z]/g, (s) => s.toUpperCase())
    const mixed = [...name].map((c, i) => i % 2 ? c.toUpperCase() : c).join('')
    for (const spelling of [name, name.toUpperCase(), title, mixed]) assert.equal(field(spelling), code, spelling)
  }
})

test('other tokens, of the same lengths or not, are none of them', () => {
  for (const name of ['hosts', 'hos', 'post', 'Xost', 'content_length', 'content-lengtx', 'transfer-encodinG1', 'connexion', 'upgrad3', 'expects', 'accept', 'x-upgrade', '']) {
    assert.equal(field(name), F_OTHER, name)
  }
})
