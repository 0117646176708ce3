// CPU burners: child processes that spin for the length of a run, so that
// the instances, nginx and the load share the CPUs with something busy, as
// on a loaded machine. Each is bounded twice: it exits by itself after
// `maxMs` (even if the soak was killed and could not stop it), and it is
// registered with children.js, which kills it when the soak exits.
import { spawnChild, waitExit } from './children.js'

// the loop checks the clock every 2^16 turns: it burns, and still ends on time
const SPIN = 'const end = Date.now() + Number(process.argv[1]); let i = 0; for (;;) { if ((++i & 0xffff) === 0 && Date.now() > end) break }'

/**
 * Starts `n` burners; resolves nothing, returns their stop().
 * @param {number} n
 * @param {number} maxMs  each exits by itself after this long
 */
export function startBurners (n, maxMs) {
  const children = Array.from({ length: n }, () => spawnChild(process.execPath, ['-e', SPIN, String(Math.ceil(maxMs))], { stdio: 'ignore' }))
  return {
    count: n,
    /** kills them and waits for their exit */
    async stop () {
      for (const c of children) c.kill('SIGKILL')
      await Promise.all(children.map((c) => waitExit(c, 5000)))
    }
  }
}
