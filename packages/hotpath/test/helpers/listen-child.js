// Child process for test/contract/listen-options.test.js: listens in a
// process of its own, where a test cannot: on a file descriptor it was
// handed at spawn (fd 3, as systemd's socket activation hands one), or as
// the primary of a node:cluster whose two workers listen. It reports over
// IPC and closes when told 'close'.
//
// argv[2]: JSON { entry: 'hotpath' | 'fastify', engine, listen, cluster? }
import cluster from 'node:cluster'
import hotpath from '../../lib/index.js'
import fastify from '../../lib/fastify.js'

const config = JSON.parse(process.argv[2])
const send = (/** @type {any} */ message) => /** @type {(m: any) => void} */ (process.send)(message)

if (config.cluster && cluster.isPrimary) {
  // the workers report to the primary, the primary to the test
  /** @type {any[]} */
  const reports = []
  for (let i = 0; i < 2; i++) {
    const worker = cluster.fork()
    worker.on('message', (report) => {
      if (report.closed) return
      reports.push(report)
      if (reports.length === 2) send({ workers: reports })
    })
    worker.on('exit', (code) => { if (code !== 0 && !closing) send({ error: `worker exited with ${code}` }) })
  }
  let closing = false
  process.on('message', async (message) => {
    if (message !== 'close') return
    closing = true
    // each worker closes its app (a handle of its own, with exclusive,
    // is not one the cluster closes), then exits
    const workers = /** @type {import('node:cluster').Worker[]} */ (Object.values(cluster.workers ?? {}))
    const exits = workers.map((worker) => {
      const exited = new Promise((resolve) => worker.once('exit', resolve))
      worker.send('close')
      return exited
    })
    await Promise.all(exits)
    send({ closed: true })
    process.disconnect()
  })
} else {
  const app = (config.entry === 'fastify' ? fastify : hotpath)({ engine: config.engine })
  app.get('/', () => ({ pid: process.pid }))
  try {
    const address = await app.listen(config.listen)
    send({ address, serverAddress: app.server.address(), origin: app.listeningOrigin, pid: process.pid })
  } catch (err) {
    send({ error: String(/** @type {any} */ (err).code ?? err) })
  }
  process.on('message', async (message) => {
    if (message !== 'close') return
    await app.close()
    send({ closed: true })
    process.disconnect()
  })
}
