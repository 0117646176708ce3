// A port free on 127.0.0.1 now: the kernel picks it for a listener that is
// closed at once. Another process could take it before the soak listens on
// it; on loopback in a short run that has not been seen, and the listen
// error would say so.
import { createServer } from 'node:net'

/** @returns {Promise<number>} */
export function freePort () {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}
