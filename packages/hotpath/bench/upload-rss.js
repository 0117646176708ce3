// Peak RSS of a server saving one large multipart upload to disk with
// @fastify/multipart's saveRequestFiles(), on each engine. The server runs in
// a child process of its own (so the client's memory is not counted) and
// answers with its peak RSS (getrusage's maxrss); the client streams the
// form from one reused buffer as fast as the socket takes it, so a server
// that does not stop reading while its disk writes lag behind holds the
// difference in memory. Loopback only, one upload per engine and round,
// bounded; not part of npm test.
//
//   node packages/hotpath/bench/upload-rss.js [MiB=512] [rounds=1] [compress]
//
// `compress` registers @fastify/compress too (its preParsing hook runs on
// every route).
//
// Prints one line per engine and round, then the median peak per engine.
import { fork } from 'node:child_process'
import http from 'node:http'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'

const MiB = 1024 * 1024
const BOUNDARY = '----hotpath-upload-rss'
const DEADLINE_MS = 300_000

if (process.argv[2] === '--server') await server(process.argv[3], process.argv[4] === 'compress')
else await main()

async function main () {
  const size = Number(process.argv[2] ?? 512) * MiB
  const rounds = Number(process.argv[3] ?? 1)
  const compress = process.argv[4] === 'compress'
  const engines = ['node', 'wire']
  /** @type {Record<string, number[]>} */
  const peaks = { node: [], wire: [] }
  console.log(`upload of ${size / MiB} MiB through @fastify/multipart saveRequestFiles${compress ? ', with @fastify/compress' : ''}, Node ${process.version}`)
  for (let r = 0; r < rounds; r++) {
    // alternate the order between rounds
    for (const engine of r % 2 === 0 ? engines : [...engines].reverse()) {
      const result = await runOne(engine, size, compress)
      peaks[engine].push(result.peak)
      console.log(`  ${engine.padEnd(4)}  peak RSS ${mb(result.peak)} MB  (idle ${mb(result.idle)} MB, saved ${result.saved} bytes, ${result.ms} ms)`)
    }
  }
  console.log('engine  median peak RSS')
  for (const engine of engines) console.log(`${engine.padEnd(6)}  ${mb(median(peaks[engine]))} MB`)
}

/**
 * @param {string} engine
 * @param {number} size
 * @param {boolean} compress
 */
async function runOne (engine, size, compress) {
  const child = fork(fileURLToPath(import.meta.url), ['--server', engine, compress ? 'compress' : ''], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const killer = setTimeout(() => child.kill('SIGKILL'), DEADLINE_MS)
  try {
    const exited = once(child, 'exit').then(([code]) => { throw new Error(`${engine}: the server exited (${code})`) })
    exited.catch(() => {})
    const [{ port, idle }] = /** @type {[{ port: number, idle: number }]} */ (await Promise.race([once(child, 'message'), exited]))
    const t0 = Date.now()
    const answer = await Promise.race([upload(port, size), exited])
    if (answer.saved !== size) throw new Error(`${engine}: saved ${answer.saved} of ${size} bytes`)
    return { peak: answer.peak, idle, saved: answer.saved, ms: Date.now() - t0 }
  } finally {
    clearTimeout(killer)
    child.kill()
    await once(child, 'exit').catch(() => {})
  }
}

/**
 * Streams a form with one file of `size` bytes.
 * @param {number} port
 * @param {number} size
 * @returns {Promise<{ saved: number, peak: number }>}
 */
function upload (port, size) {
  const head = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`)
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`)
  const block = Buffer.alloc(MiB, 0x61)
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/upload',
      agent: false,
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': head.length + size + tail.length }
    }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (c) => { text += c })
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`status ${res.statusCode}: ${text}`))
        else resolve(JSON.parse(text))
      })
    })
    req.on('error', reject)
    let left = size
    const write = () => {
      while (left > 0) {
        const n = Math.min(left, block.length)
        left -= n
        if (!req.write(n === block.length ? block : block.subarray(0, n))) return req.once('drain', write)
      }
      req.end(tail)
    }
    req.write(head)
    write()
  })
}

/**
 * @param {string} engine
 * @param {boolean} compress
 */
async function server (engine, compress) {
  const { default: hotpath } = await import('../lib/index.js')
  const { default: multipart } = await import('@fastify/multipart')
  const { stat } = await import('node:fs/promises')
  const app = hotpath({ engine, bodyLimit: 1024 * MiB, logger: { level: 'error' } })
  if (compress) await app.register((await import('@fastify/compress')).default)
  await app.register(multipart, { limits: { fileSize: 1024 * MiB } })
  app.post('/upload', async (req) => {
    const result = await req.saveRequestFiles()
    // @fastify/multipart 10 resolves { files, values }; earlier ones the array
    const files = Array.isArray(result) ? result : result.files
    let saved = 0
    for (const f of files) saved += (await stat(f.filepath)).size
    return { saved, peak: process.resourceUsage().maxRSS * 1024 }
  })
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  // never outlive the parent
  process.on('disconnect', () => process.exit(0))
  const send = /** @type {NonNullable<typeof process.send>} */ (process.send)
  send.call(process, { port: Number(new URL(address).port), idle: process.memoryUsage.rss() })
}

/** @param {number} bytes */
function mb (bytes) {
  return (bytes / 1e6).toFixed(0)
}

/** @param {number[]} xs */
function median (xs) {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]
}
