// A port free on 127.0.0.1, taken below the kernel's ephemeral range: the
// ports the kernel hands out for outgoing connections (nginx's to the
// instances, the load's) churn by the thousand during a soak, and one of
// them can take an instance's port in the moment between its old process
// exiting and its new one listening (EADDRINUSE). A port below that range
// is only ever taken by a listener.
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'

const FIRST = 10_000

/** The lowest ephemeral port (Linux), or 32768, the Linux and macOS default's lowest. */
function ephemeralLow () {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0])
    return Number.isInteger(low) && low > FIRST + 1000 ? low : 32768
  } catch {
    return 32768
  }
}

/** @param {number} port @returns {Promise<boolean>} */
function canListen (port) {
  return new Promise((resolve) => {
    const server = createServer()
    server.unref()
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
  })
}

/** @returns {Promise<number>} */
export async function freePort () {
  const low = ephemeralLow()
  for (let tries = 0; tries < 100; tries++) {
    const port = FIRST + Math.floor(Math.random() * (low - FIRST))
    if (await canListen(port)) return port
  }
  throw new Error(`no free port found between ${FIRST} and ${low}`)
}
