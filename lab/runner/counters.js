// Counters a target's preloaded setup publishes (spans exported by its
// tracing, say) for the probe to report with the server's other figures.
// One object per process, on a global symbol, so the setup and the probe
// share it whichever of them loads first.

const KEY = Symbol.for('hotpath-lab.counters')

/** @returns {Record<string, number>} */
export function labCounters () {
  const g = /** @type {any} */ (globalThis)
  return (g[KEY] ??= {})
}
