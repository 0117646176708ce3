// The first thing a user reads about a failed test: its error's first line,
// and the line of the test file where it was thrown.

/**
 * @param {any} error   a test's error (node:test wraps it: the assertion is its cause)
 * @param {string | undefined} file  the test file, to find its frame in the stack
 * @returns {string | null}
 */
export function firstErrorLine (error, file) {
  if (error === undefined || error === null) return null
  const cause = error.code === 'ERR_TEST_FAILURE' && error.cause !== undefined ? error.cause : error
  const message = String(cause?.message ?? cause).split('\n').find((line) => line.trim() !== '') ?? ''
  const where = frameIn(cause?.stack, file)
  return where ? `${message.trim()} (${where})` : message.trim()
}

/**
 * `file:line:column` of the first stack frame in `file`, else of the first
 * frame outside node_modules and Node's internals.
 * @param {string | undefined} stack @param {string | undefined} file
 */
export function frameIn (stack, file) {
  if (typeof stack !== 'string') return null
  const frames = stack.split('\n').map((l) => /\(?((?:file:\/\/)?\/[^()]+?:\d+:\d+)\)?\s*$/.exec(l)?.[1]).filter(Boolean)
  const plain = frames.map((f) => String(f).replace(/^file:\/\//, ''))
  const inFile = file ? plain.find((f) => f.startsWith(String(file).replace(/^file:\/\//, '') + ':')) : undefined
  return inFile ?? plain.find((f) => !f.includes('/node_modules/') && !f.startsWith('node:')) ?? null
}
