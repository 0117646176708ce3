// One canonical media type per Content-Type header: the parser table and
// anything else that looks at the type use mediaType(), so odd case,
// spaces, tabs and parameters can never make them disagree; anything that
// is not a media-type is refused (415).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { mediaType } from '../../lib/lifecycle/parsers/content-type.js'
import { ParserTable } from '../../lib/lifecycle/parsers/table.js'

const tokenChar = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&\'*+-.^_`|~'.split(''))
const token = fc.array(tokenChar, { minLength: 1, maxLength: 12 }).map((a) => a.join(''))
const ows = fc.array(fc.constantFrom(' ', '\t'), { maxLength: 3 }).map((a) => a.join(''))
const quoted = fc.array(fc.constantFrom(...'abc ;=,/'.split('')), { maxLength: 8 }).map((a) => `"${a.join('')}"`)
const param = fc.tuple(ows, token, fc.oneof(token, quoted), ows).map(([a, k, v, b]) => `;${a}${k}=${v}${b}`)
const randomCase = (/** @type {string} */ s) => fc.array(fc.boolean(), { minLength: s.length, maxLength: s.length }).map((flips) => [...s].map((c, i) => flips[i] ? c.toUpperCase() : c.toLowerCase()).join(''))

test('valid headers map to the lower-cased essence', () => {
  fc.assert(fc.property(token, token, ows, ows, fc.array(param, { maxLength: 3 }), (type, sub, a, b, params) => {
    const header = `${a}${type}/${sub}${b}${params.join('')}`
    assert.equal(mediaType(header), `${type}/${sub}`.toLowerCase())
  }))
})

test('any spelling of application/json finds the JSON parser; junk finds none', () => {
  const table = new ParserTable(null)
  const json = table.find('application/json')
  assert.ok(json)
  fc.assert(fc.property(randomCase('application/json'), ows, ows, fc.array(param, { maxLength: 2 }), (essence, a, b, params) => {
    assert.equal(table.find(`${a}${essence}${b}${params.join('')}`), json)
  }))
  fc.assert(fc.property(fc.string({ maxLength: 30 }), (junk) => {
    const header = `application/json${junk}`
    const found = table.find(header)
    // either it still parses as application/json with valid parameters, or it is refused
    if (found !== null) assert.equal(mediaType(header), 'application/json')
  }))
  for (const bad of ['application/json garbage', 'application/json;', 'application /json', 'application/json; charset', '/json', 'json', '']) {
    const t = mediaType(bad)
    if (bad === 'application/json;') assert.equal(t, 'application/json')
    else assert.equal(t, null, bad)
  }
})
