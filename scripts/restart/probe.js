// One GET on a fresh connection (no keep-alive agent), to check an instance
// or nginx directly, apart from the load.
import { request } from 'node:http'
import { sleep } from './wait.js'

/**
 * @param {number} port
 * @param {string} path
 * @returns {Promise<number>} the status, or 0 when the connection failed
 */
export function get (port, path) {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false, timeout: 2000 }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
      res.on('error', () => resolve(0))
    })
    req.on('timeout', () => req.destroy())
    req.on('error', () => resolve(0))
    req.end()
  })
}

/**
 * Polls `path` until it answers 200 (every 50 ms, `ms` at most). An
 * application whose health route does not exist (404) is taken as ready
 * when GET /items/probe answers 200 instead: the soak then says so
 * (`health: 'absent'`) rather than waiting forever.
 * @param {number} port
 * @param {string} path
 * @param {number} ms
 * @returns {Promise<'200' | 'absent'>}
 */
export async function waitHealthy (port, path, ms) {
  const end = Date.now() + ms
  let last = 0
  while (Date.now() < end) {
    last = await get(port, path)
    if (last === 200) return '200'
    if (last === 404 && await get(port, '/items/probe') === 200) return 'absent'
    await sleep(50)
  }
  throw new Error(`127.0.0.1:${port}${path} did not answer 200 within ${ms} ms (last: ${last || 'no connection'})`)
}
