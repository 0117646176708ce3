// The table the soak prints: one row per mode and target.

/**
 * @typedef {object} Row
 * @property {string} mode
 * @property {string} target
 * @property {import('./load.js').LoadStats} stats
 * @property {boolean} accounted
 * @property {number} restartsDone
 * @property {number} restartsPlanned
 * @property {string} [error]   the run failed before it could finish
 */

/** @param {Record<string, number>} counts */
function list (counts) {
  const entries = Object.entries(counts).filter(([, n]) => n > 0)
  return entries.length === 0 ? '0' : entries.map(([k, n]) => `${k}×${n}`).join(' ')
}

/** @param {import('./load.js').LoadStats} s */
export function ok2xx (s) {
  return Object.entries(s.status).filter(([k]) => k.startsWith('2')).reduce((a, [, n]) => a + n, 0)
}

/** @param {import('./load.js').LoadStats} s */
export function non2xx (s) {
  /** @type {Record<string, number>} */
  const out = {}
  for (const [k, n] of Object.entries(s.status)) if (!k.startsWith('2')) out[k] = n
  if (s.badBody > 0) out['2xx-bad-body'] = s.badBody
  return out
}

/** @param {Row[]} rows */
export function table (rows) {
  const head = ['mode', 'target', 'requests', '2xx', 'non-2xx', 'socket errors', 'refused, sent again', 'restarts', 'served by']
  const body = rows.map((r) => r.error
    ? [r.mode, r.target, 'failed: ' + r.error.split('\n')[0], '', '', '', '', '', '']
    : [
        r.mode,
        r.target,
        String(r.stats.sent) + (r.accounted ? '' : ' (NOT ACCOUNTED)'),
        String(ok2xx(r.stats)),
        list(non2xx(r.stats)),
        list(r.stats.errors),
        String(r.stats.retried ?? 0),
        `${r.restartsDone}/${r.restartsPlanned}`,
        list(r.stats.instances)
      ])
  const all = [head, ...body]
  const widths = head.map((_, i) => Math.max(...all.map((row) => row[i].length)))
  const line = (/** @type {string[]} */ row) => '| ' + row.map((c, i) => c.padEnd(widths[i])).join(' | ') + ' |'
  return [line(head), '|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|', ...body.map(line)].join('\n')
}
