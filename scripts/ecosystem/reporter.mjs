// A node:test reporter that writes one JSON line per test started and per
// test finished, so that results.js can tell leaf tests from the suites and
// parent tests around them, and name each by its path.
export default async function * jsonLines (source) {
  for await (const event of source) {
    const d = event.data
    if (event.type === 'test:start') {
      yield JSON.stringify({ event: 'start', nesting: d.nesting, name: d.name }) + '\n'
    } else if (event.type === 'test:pass' || event.type === 'test:fail') {
      yield JSON.stringify({
        event: event.type === 'test:pass' ? 'pass' : 'fail',
        nesting: d.nesting,
        name: d.name,
        skip: d.skip !== undefined && d.skip !== false,
        todo: d.todo !== undefined && d.todo !== false,
        error: event.type === 'test:fail' ? String(d.details?.error?.cause?.message ?? d.details?.error?.message ?? '').slice(0, 300) : undefined
      }) + '\n'
    }
  }
}
