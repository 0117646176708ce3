// connect-timeout under /slow (100 ms) and express-rate-limit under
// /limited (3 requests a minute per client address).
import { setTimeout as sleep } from 'node:timers/promises'
import timeout from 'connect-timeout'
import { rateLimit } from 'express-rate-limit'

export const TIMEOUT_MS = 100
export const RATE_LIMIT = 3

/**
 * @param {import('hotpath').HotpathInstance} app
 * @param {{ timedOut: boolean[] }} settings  what the slow route saw as req.timedout, for the curious (and the tests)
 */
export function limits (app, settings) {
  app.register(async (api) => {
    api.use(timeout(TIMEOUT_MS))
    api.get('/fast', () => ({ fast: true }))
    api.get('/wait', async (req) => {
      await sleep(TIMEOUT_MS * 3)
      const raw = /** @type {any} */ (req.raw)
      settings.timedOut.push(raw.timedout)
      // as an Express route checks it: the 503 has gone out already
      return { late: true, timedout: raw.timedout }
    })
  }, { prefix: '/slow' })

  const limiter = rateLimit({ windowMs: 60_000, limit: RATE_LIMIT, standardHeaders: 'draft-7', legacyHeaders: true })
  // the store's view of a client (limiter.getKey(ip)), and resetKey()
  app.decorate('rateLimiter', limiter)
  app.register(async (api) => {
    api.use(limiter)
    api.get('/', () => ({ ok: true }))
  }, { prefix: '/limited' })
}
