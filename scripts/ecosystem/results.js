// Turns the reporter's lines into per-test results, compares two runs of a
// suite (on Fastify, on hotpath), and writes the table of docs/ecosystem.md.
// Pure functions: test/results.test.js checks them without the network.

/**
 * @typedef {{ event: 'start' | 'pass' | 'fail', nesting: number, name: string, skip?: boolean, todo?: boolean, error?: string }} ReporterLine
 * @typedef {{ ok: boolean, error?: string }} TestResult
 */

/**
 * The leaf tests of one file's run, keyed by their path ("suite > test"),
 * skipped and todo tests left out. A test with subtests is not counted: its
 * subtests are. A path seen twice gets "#2", "#3"...
 * @param {string} file    the test file, prefixed to every key
 * @param {string} output  the reporter's lines
 * @returns {Map<string, TestResult>}
 */
export function leafResults (file, output) {
  /** @type {string[]} */
  const stack = []
  /** @type {{ path: string, ok: boolean, error?: string, skip: boolean }[]} */
  const finished = []
  for (const text of output.split('\n')) {
    if (!text.startsWith('{')) continue
    /** @type {ReporterLine} */
    let line
    try { line = JSON.parse(text) } catch { continue }
    if (line.event === 'start') {
      stack.length = line.nesting
      stack[line.nesting] = line.name
      continue
    }
    stack.length = line.nesting
    stack[line.nesting] = line.name
    finished.push({ path: stack.join(' > '), ok: line.event === 'pass', error: line.error, skip: Boolean(line.skip || line.todo) })
  }
  const parents = new Set()
  for (const { path } of finished) {
    const parts = path.split(' > ')
    for (let i = 1; i < parts.length; i++) parents.add(parts.slice(0, i).join(' > '))
  }
  /** @type {Map<string, TestResult>} */
  const results = new Map()
  const seen = new Map()
  for (const r of finished) {
    if (parents.has(r.path) || r.skip) continue
    const n = (seen.get(r.path) ?? 0) + 1
    seen.set(r.path, n)
    results.set(`${file} > ${r.path}${n > 1 ? ` #${n}` : ''}`, r.ok ? { ok: true } : { ok: false, error: r.error })
  }
  return results
}

/**
 * A TAP stream (a test file run by itself with tap: `node test/x.test.js`)
 * as the reporter's lines, so that leafResults() reads it as it reads
 * node:test's. A test is a point announced by a `# Subtest:` line at its
 * depth; the other points are a test's assertions and are not counted, except
 * that a failing one names the test's error. Skipped and todo points are
 * marked so.
 * @param {string} output
 * @returns {string}
 */
export function tapLines (output) {
  /** @type {string[]} */
  const lines = []
  /** @type {Map<number, string>} */
  const announced = new Map()
  let failure = ''
  for (const raw of output.split('\n')) {
    const indent = raw.length - raw.trimStart().length
    const text = raw.trim()
    const nesting = Math.floor(indent / 4)
    const sub = /^# Subtest: (.*)$/.exec(text)
    if (sub) {
      announced.set(nesting, sub[1])
      lines.push(JSON.stringify({ event: 'start', nesting, name: sub[1] }))
      continue
    }
    const point = /^(not )?ok \d+(?: - (.*?))?(?: # (SKIP|TODO|time=)(.*))?$/i.exec(text)
    if (point) {
      const ok = point[1] === undefined
      const name = (point[2] ?? '').trim()
      const directive = (point[3] ?? '').toUpperCase()
      if (announced.get(nesting) === name) {
        announced.delete(nesting)
        lines.push(JSON.stringify({ event: ok ? 'pass' : 'fail', nesting, name, skip: directive === 'SKIP', todo: directive === 'TODO', error: ok ? undefined : (failure || 'failed').slice(0, 300) }))
        if (!ok) failure = ''
      } else if (!ok && directive !== 'TODO' && failure === '') {
        failure = name
      }
      continue
    }
    const detail = /^(found|wanted|message|code): (.*)$/.exec(text)
    if (detail && failure !== '' && failure.length < 300) failure += `; ${detail[1]}: ${detail[2]}`
  }
  return lines.join('\n')
}

/**
 * The measure: of the tests that pass on Fastify, how many pass on hotpath,
 * and the failing ones with their errors.
 * @param {Map<string, TestResult>} onFastify
 * @param {Map<string, TestResult>} onHotpath
 */
export function compare (onFastify, onHotpath) {
  let total = 0
  let passing = 0
  /** @type {{ test: string, error: string }[]} */
  const failing = []
  for (const [test, r] of onFastify) {
    if (!r.ok) continue
    total++
    const h = onHotpath.get(test)
    if (h?.ok) passing++
    else failing.push({ test, error: h === undefined ? 'did not run' : (h.error || 'failed') })
  }
  return { total, passing, failing }
}

/** @param {number} passing @param {number} total */
export const percent = (passing, total) => total === 0 ? '–' : `${(100 * passing / total).toFixed(1)} %`

/**
 * The Markdown table of docs/ecosystem.md.
 * @param {{ name: string, version: string, passing: number, total: number, note?: string }[]} rows
 */
export function renderTable (rows) {
  const lines = ['| Plugin | Version | Tests passing on hotpath | |', '|---|---|---|---|']
  let passing = 0
  let total = 0
  for (const r of rows) {
    passing += r.passing
    total += r.total
    lines.push(`| ${r.name} | ${r.version} | ${r.passing}/${r.total} | ${r.note ?? percent(r.passing, r.total)} |`)
  }
  lines.push(`| **total** | | **${passing.toLocaleString('en-US')}/${total.toLocaleString('en-US')}** | **${percent(passing, total)}** |`)
  return lines.join('\n')
}

/**
 * The list under the table: the official plugins that are not measured, and why.
 * @param {{ name: string, why: string }[]} plugins
 */
export function renderNotRun (plugins) {
  if (plugins.length === 0) return ''
  const lines = ['Not run:', '']
  for (const p of [...plugins].sort((a, b) => a.name.localeCompare(b.name))) lines.push(`- ${p.name}: ${p.why}`)
  return lines.join('\n')
}

/**
 * A shell-style pattern of test files (`*` within a folder, `**` across
 * folders) as a regular expression matched against paths relative to the
 * package.
 * @param {string} glob
 */
export function globToRegExp (glob) {
  let re = ''
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]
    if (c === '*' && glob[i + 1] === '*') {
      re += glob[i + 2] === '/' ? '(?:.*/)?' : '.*'
      i += glob[i + 2] === '/' ? 2 : 1
    } else if (c === '*') re += '[^/]*'
    else if (c === '?') re += '[^/]'
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&')
  }
  return new RegExp(`^${re}$`)
}

export const START = '<!-- ecosystem:start -->'
export const END = '<!-- ecosystem:end -->'

/**
 * The page with the text between its two markers replaced.
 * @param {string} page
 * @param {string} section
 */
export function replaceSection (page, section) {
  const i = page.indexOf(START)
  const j = page.indexOf(END)
  if (i < 0 || j < i) throw new Error(`the page has no ${START} … ${END} section`)
  return page.slice(0, i + START.length) + '\n' + section + '\n' + page.slice(j)
}
