// Middleware that decorates the request: cookie-parser (plain and signed
// cookies), express-session (a session kept across requests in the memory
// store) and passport-local (a login, then req.user through the session).
// The routes read what the middleware set from req.raw.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import { eachMode, setup, cookieHeader } from './helpers.js'
import { USER } from '../middleware/sessions.js'

const SECRET = 'test secret'

/**
 * A cookie value signed as cookie-parser (cookie-signature) checks it.
 * @param {string} value
 */
function signed (value) {
  return 's:' + value + '.' + createHmac('sha256', SECRET).update(value).digest('base64').replace(/=+$/, '')
}

eachMode('cookie-parser', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => { s = await setup(mode, { secret: SECRET }) })
  after(() => s.close())

  test('plain and signed cookies reach the route (req.raw.cookies, req.raw.signedCookies)', async () => {
    const cookie = `theme=dark; cart=${encodeURIComponent('j:{"n":2}')}; user=${encodeURIComponent(signed('ada'))}`
    const res = await s.request({ url: '/cookies', headers: { cookie } })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { cookies: { theme: 'dark', cart: { n: 2 } }, signedCookies: { user: 'ada' } })
  })

  test('a cookie signed with another secret is false among the signed cookies', async () => {
    const forged = 's:ada.' + createHmac('sha256', 'other').update('ada').digest('base64').replace(/=+$/, '')
    const res = await s.request({ url: '/cookies', headers: { cookie: `user=${encodeURIComponent(forged)}` } })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { cookies: {}, signedCookies: { user: false } })
  })
})

eachMode('express-session', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => { s = await setup(mode, { secret: SECRET }) })
  after(() => s.close())

  test('the first visit sets the session cookie; the session survives across requests', async () => {
    const first = await s.request('/session/visit')
    assert.equal(first.statusCode, 200)
    assert.equal(first.json().views, 1)
    const setCookie = first.headers['set-cookie']
    assert.ok(setCookie, 'Set-Cookie is on the first reply')
    assert.match(String(setCookie), /^connect\.sid=s%3A[^;]+; Path=\/; HttpOnly; SameSite=Lax$/)
    const cookie = cookieHeader(setCookie)

    const second = await s.request({ url: '/session/visit', headers: { cookie } })
    assert.equal(second.statusCode, 200)
    assert.deepEqual(second.json(), { views: 2, id: first.json().id })
    // resave: false, and the cookie unchanged: no Set-Cookie again
    assert.equal(second.headers['set-cookie'], undefined)

    const third = await s.request({ url: '/session/visit', headers: { cookie } })
    assert.equal(third.json().views, 3)
  })

  test('another client (no cookie) gets a session of its own', async () => {
    const res = await s.request('/session/visit')
    assert.equal(res.statusCode, 200)
    assert.equal(res.json().views, 1)
  })
})

eachMode('passport-local', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => { s = await setup(mode, { secret: SECRET }) })
  after(() => s.close())

  const me = { id: USER.id, username: USER.username, name: USER.name }

  test('a login with form credentials, then req.user through the session on the next request', async () => {
    const login = await s.request({ method: 'POST', url: '/auth/login', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `username=${USER.username}&password=${USER.password}` })
    assert.equal(login.statusCode, 200)
    assert.deepEqual(login.json(), { user: me })
    const setCookie = login.headers['set-cookie']
    assert.match(String(setCookie), /^auth\.sid=s%3A/)
    const res = await s.request({ url: '/auth/me', headers: { cookie: cookieHeader(setCookie) } })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { user: me })
  })

  test('a login with JSON credentials', async () => {
    const login = await s.request({ method: 'POST', url: '/auth/login', payload: { username: USER.username, password: USER.password } })
    assert.equal(login.statusCode, 200)
    assert.deepEqual(login.json(), { user: me })
    const res = await s.request({ url: '/auth/me', headers: { cookie: cookieHeader(login.headers['set-cookie']) } })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { user: me })
  })

  test('a wrong password is 401 and sets no session', async () => {
    const login = await s.request({ method: 'POST', url: '/auth/login', payload: { username: USER.username, password: 'nope' } })
    assert.equal(login.statusCode, 401)
    assert.equal(login.headers['set-cookie'], undefined)
  })

  test('without a session, /auth/me is refused by the guard middleware', async () => {
    const res = await s.request('/auth/me')
    assert.equal(res.statusCode, 401)
    assert.deepEqual(res.json(), { error: 'not logged in' })
  })
})
