// Progress: a one-line bar with the current target, scenario and round on a
// TTY (redrawn in place), plain log lines otherwise (CI logs, pipes).

/**
 * @param {NodeJS.WriteStream} stream
 * @returns {{ start(total: number, seconds: number): void, tick(label: string): void, skip(n: number): void, done(): void, log(line: string): void }}
 */
export function createProgress (stream = process.stderr) {
  const tty = Boolean(stream.isTTY)
  let total = 0
  let count = 0
  let began = 0
  let line = ''
  let estimate = 0
  const clear = () => { if (tty && line) { stream.write('\r\x1b[K'); line = '' } }
  const draw = (label) => {
    const width = 24
    const filled = total ? Math.round((count / total) * width) : 0
    const elapsed = (Date.now() - began) / 1000
    const left = count > 1 ? Math.max(0, (elapsed / (count - 1)) * (total - count + 1) - 0) : estimate
    line = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${count}/${total} ${label}  ~${formatSeconds(left)} left`
    stream.write(`\r\x1b[K${line.slice(0, (stream.columns || 120) - 1)}`)
  }
  return {
    start (n, seconds) {
      total = n; count = 0; began = Date.now(); estimate = seconds
      stream.write(`${n} timed runs, at least ${formatSeconds(seconds)} of load\n`)
    },
    tick (label) {
      count++
      if (tty) draw(label)
      else stream.write(`[${count}/${total}] ${label}\n`)
    },
    skip (n) { total -= n },
    done () { clear() },
    log (text) {
      clear()
      stream.write(`${text}\n`)
    }
  }
}

export function formatSeconds (s) {
  s = Math.round(s)
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`
}
