'use strict'
// The requests the tests send to the application, each with the status it
// must answer; every answer is also compared with the same application on
// Fastify.
const assert = require('node:assert/strict')
const { createHash } = require('node:crypto')
const { readFileSync } = require('node:fs')
const { join } = require('node:path')

const json = 'application/json'
const FILE = readFileSync(join(__dirname, '..', 'files', 'hello.txt'), 'utf8')

/** @type {{ name: string, method: string, url: string, headers?: Record<string, string>, body?: string, status: number, injectStatus?: number }[]} */
const CASES = [
  { name: 'a list', method: 'GET', url: '/cats', status: 200 },
  { name: 'a query, transformed and validated', method: 'GET', url: '/cats?limit=1', status: 200 },
  { name: 'a query the ValidationPipe refuses', method: 'GET', url: '/cats?limit=0', status: 400 },
  { name: 'a parameter through ParseIntPipe', method: 'GET', url: '/cats/1', status: 200 },
  { name: 'a NotFoundException', method: 'GET', url: '/cats/99', status: 404 },
  { name: 'a parameter ParseIntPipe refuses', method: 'GET', url: '/cats/abc', status: 400 },
  { name: 'a body the ValidationPipe takes', method: 'POST', url: '/cats', headers: { 'content-type': json }, body: '{"name":"Garfield","age":7}', status: 201 },
  { name: 'a body the ValidationPipe refuses', method: 'POST', url: '/cats', headers: { 'content-type': json }, body: '{"name":3,"age":"x","extra":1}', status: 400 },
  { name: 'a body that is not JSON', method: 'POST', url: '/cats', headers: { 'content-type': json }, body: '{"name":', status: 400 },
  { name: 'an empty JSON body', method: 'POST', url: '/cats', headers: { 'content-type': json }, body: '', status: 400 },
  { name: 'a poisoned JSON body', method: 'POST', url: '/cats', headers: { 'content-type': json }, body: '{"__proto__":{"x":1}}', status: 400 },
  { name: 'a body of a type without parser', method: 'POST', url: '/cats', headers: { 'content-type': 'text/csv' }, body: 'a,b', status: 415 },
  { name: 'a route the middleware excludes', method: 'GET', url: '/cats/health', status: 200 },
  { name: 'a guard that refuses', method: 'GET', url: '/cats/admin', status: 403 },
  { name: 'a guard that lets through', method: 'GET', url: '/cats/admin', headers: { 'x-role': 'admin' }, status: 200 },
  { name: 'an interceptor', method: 'GET', url: '/cats/wrapped?name=nest', status: 200 },
  { name: 'an exception filter', method: 'GET', url: '/cats/teapot', status: 418 },
  { name: 'an unexpected error', method: 'GET', url: '/cats/crash', status: 500 },
  { name: 'a StreamableFile', method: 'GET', url: '/cats/file', status: 200 },
  { name: 'a StreamableFile, HEAD', method: 'HEAD', url: '/cats/file', status: 200 },
  // inject()'s socket (light-my-request's, and hotpath's as Fastify's) has
  // no setKeepAlive(), which Nest's SSE stream calls: 500 on both
  { name: 'server-sent events', method: 'GET', url: '/cats/events?count=3', status: 200, injectStatus: 500 },
  { name: 'a raw body', method: 'POST', url: '/cats/raw', headers: { 'content-type': json }, body: '{ "a": 1,  "b": "é" }', status: 200 },
  { name: 'a urlencoded raw body', method: 'POST', url: '/cats/raw', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1&b=%C3%A9', status: 200 },
  { name: 'middleware that answers', method: 'GET', url: '/cats/1', headers: { 'x-stop': 'yes' }, status: 429 },
  { name: 'middleware that throws', method: 'GET', url: '/cats/1', headers: { 'x-stop': 'throw' }, status: 403 },
  { name: 'no route', method: 'GET', url: '/dogs', status: 404 },
  { name: 'URI version 1', method: 'GET', url: '/v1/greetings', status: 200 },
  { name: 'URI version 2', method: 'GET', url: '/v2/greetings', status: 200 },
  { name: 'URI version 3, none', method: 'GET', url: '/v3/greetings', status: 404 },
  { name: 'a version-neutral route', method: 'GET', url: '/greetings/any', status: 200 },
  { name: 'no version in the path', method: 'GET', url: '/greetings', status: 404 }
]

const HEADER_CASES = [
  { name: 'header version 1', method: 'GET', url: '/greetings', headers: { 'x-api-version': '1' }, status: 200 },
  { name: 'header version 2', method: 'GET', url: '/greetings', headers: { 'x-api-version': '2' }, status: 200 },
  { name: 'header version 3, none', method: 'GET', url: '/greetings', headers: { 'x-api-version': '3' }, status: 404 },
  { name: 'no version header', method: 'GET', url: '/greetings', status: 404 },
  { name: 'a version-neutral route, any header', method: 'GET', url: '/greetings/any', headers: { 'x-api-version': '7' }, status: 200 },
  { name: 'a version-neutral route, no header', method: 'GET', url: '/greetings/any', status: 200 },
  { name: 'a version in the path is a path', method: 'GET', url: '/v1/greetings', headers: { 'x-api-version': '1' }, status: 404 }
]

// What each feature answers, beyond its status
const CHECKS = {
  'a list': (a) => assert.deepEqual(JSON.parse(a.body).map((cat) => cat.name), ['Tom', 'Felix']),
  'a query, transformed and validated': (a) => assert.equal(JSON.parse(a.body).length, 1),
  'a query the ValidationPipe refuses': (a) => assert.deepEqual(JSON.parse(a.body).message, ['limit must not be less than 1']),
  'a body the ValidationPipe refuses': (a) => assert.equal(JSON.parse(a.body).message[0], 'property extra should not exist'),
  'a body the ValidationPipe takes': (a) => assert.deepEqual(JSON.parse(a.body), { id: 3, name: 'Garfield', age: 7 }),
  'a route the middleware excludes': (a) => assert.equal(a.headers['x-stamp'], undefined),
  'a parameter through ParseIntPipe': (a) => assert.equal(a.headers['x-stamp'], 'cats'),
  'a guard that lets through': (a) => assert.deepEqual(JSON.parse(a.body), { secret: 'catnip' }),
  'an interceptor': (a) => {
    assert.equal(a.headers['x-envelope'], 'yes')
    assert.deepEqual(JSON.parse(a.body), { data: 'hello nest', path: '/cats/wrapped?name=nest' })
  },
  'an exception filter': (a) => {
    assert.equal(a.headers['x-filter'], 'teapot')
    assert.deepEqual(JSON.parse(a.body), { error: 'no coffee here', flavour: 'coffee', method: 'GET' })
  },
  'an unexpected error': (a) => assert.deepEqual(JSON.parse(a.body), { statusCode: 500, message: 'Internal server error' }),
  'a StreamableFile': (a) => {
    assert.equal(a.body, FILE)
    assert.equal(a.headers['content-disposition'], 'attachment; filename="hello.txt"')
    assert.equal(a.headers['content-length'], String(Buffer.byteLength(FILE)))
  },
  'a StreamableFile, HEAD': (a) => {
    assert.equal(a.body, '')
    assert.equal(a.headers['content-length'], String(Buffer.byteLength(FILE)))
  },
  'server-sent events': (a) => {
    assert.equal(a.headers['content-type'], 'text/event-stream')
    assert.equal(a.body, [0, 1, 2].map((n) => `event: tick\nid: ${n}\ndata: {"n":${n}}\n\n`).join('').replace(/^/, '\n'))
  },
  'a raw body': (a, c) => {
    const { length, sha256 } = JSON.parse(a.body)
    assert.equal(length, Buffer.byteLength(c.body))
    assert.equal(sha256, createHash('sha256').update(c.body).digest('hex'))
  },
  'a urlencoded raw body': (a, c) => assert.deepEqual(JSON.parse(a.body), {
    length: c.body.length, sha256: createHash('sha256').update(c.body).digest('hex'), body: { a: '1', b: 'é' }
  }),
  'middleware that answers': (a) => assert.equal(a.body, 'stopped by middleware'),
  'middleware that throws': (a) => assert.deepEqual(JSON.parse(a.body), { statusCode: 403, error: 'Forbidden', message: 'middleware said no' }),
  'URI version 1': (a) => assert.deepEqual(JSON.parse(a.body), { version: '1', greeting: 'hello' }),
  'URI version 2': (a) => assert.deepEqual(JSON.parse(a.body), { version: '2', greeting: 'bonjour' }),
  'header version 1': (a) => assert.deepEqual(JSON.parse(a.body), { version: '1', greeting: 'hello' }),
  'header version 2': (a) => assert.deepEqual(JSON.parse(a.body), { version: '2', greeting: 'bonjour' })
}

module.exports = { CASES, HEADER_CASES, CHECKS }
