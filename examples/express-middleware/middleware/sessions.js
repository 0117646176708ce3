// Middleware that decorates the request: cookie-parser under /cookies,
// express-session under /session, passport + passport-local (on their own
// session) under /auth.
//
// Express middleware sets what it finds on the node request object it is
// given (req.cookies, req.session, req.user). A hotpath route reaches that
// object as `req.raw`: on the node engine it is the IncomingMessage the
// middleware got.
import cookieParser from 'cookie-parser'
import session from 'express-session'
import passport from 'passport'
import { Strategy as LocalStrategy } from 'passport-local'
import bodyParser from 'body-parser'

/** The one user the example knows; a real app looks users up in a store. */
export const USER = { id: 7, username: 'ada', password: 'lovelace', name: 'Ada' }

/** @param {import('hotpath').HotpathInstance} app @param {{ secret: string }} settings */
export function cookies (app, settings) {
  app.register(async (api) => {
    api.use(cookieParser(settings.secret))
    api.get('/', (req) => {
      const raw = /** @type {any} */ (req.raw)
      return { cookies: raw.cookies, signedCookies: raw.signedCookies }
    })
  }, { prefix: '/cookies' })
}

/** @param {import('hotpath').HotpathInstance} app @param {{ secret: string }} settings */
export function sessions (app, settings) {
  app.register(async (api) => {
    api.use(session({ secret: settings.secret, resave: false, saveUninitialized: false, cookie: { httpOnly: true, sameSite: 'lax' } }))
    api.get('/visit', (req) => {
      const s = /** @type {any} */ (req.raw).session
      s.views = (s.views ?? 0) + 1
      return { views: s.views, id: s.id }
    })
  }, { prefix: '/session' })
}

/** @param {import('hotpath').HotpathInstance} app @param {{ secret: string }} settings */
export function auth (app, settings) {
  // A Passport of its own, so that nothing leaks into another app built in
  // the same process (the tests build one per engine).
  const pass = new passport.Passport()
  pass.use(new LocalStrategy((username, password, done) => {
    done(null, username === USER.username && password === USER.password ? USER : false)
  }))
  pass.serializeUser((/** @type {any} */ user, done) => done(null, user.id))
  pass.deserializeUser((id, done) => done(null, id === USER.id ? USER : false))

  app.register(async (api) => {
    api.use(bodyParser.urlencoded({ extended: false }))
    api.use(bodyParser.json())
    api.use(session({ name: 'auth.sid', secret: settings.secret, resave: false, saveUninitialized: false }))
    api.use(pass.initialize())
    api.use(pass.session())
    // Express writes app.post('/login', passport.authenticate('local'), …);
    // hotpath's app.use takes every method, so the middleware checks it.
    api.use('/login', onlyPost(pass.authenticate('local')))
    api.use('/me', (/** @type {any} */ req, /** @type {any} */ res, /** @type {Function} */ next) => {
      if (req.isAuthenticated()) return next()
      res.statusCode = 401
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ error: 'not logged in' }))
    })
    api.post('/login', (req) => ({ user: publicUser(/** @type {any} */ (req.raw).user) }))
    api.get('/me', (req) => ({ user: publicUser(/** @type {any} */ (req.raw).user) }))
  }, { prefix: '/auth' })
}

/** @param {Function} mw */
function onlyPost (mw) {
  return (/** @type {any} */ req, /** @type {any} */ res, /** @type {Function} */ next) => req.method === 'POST' ? mw(req, res, next) : next()
}

/** @param {typeof USER | undefined} user */
function publicUser (user) {
  return user === undefined ? null : { id: user.id, username: user.username, name: user.name }
}
