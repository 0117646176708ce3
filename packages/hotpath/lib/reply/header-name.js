// Header names as the keys replies store them under: lower case, since field
// names are case-insensitive (RFC 9110 §5.1). Plugins name their headers in
// their own case ('Access-Control-Allow-Origin', 'Content-Security-Policy',
// 'Set-Cookie'), a few constant names per request each; toLowerCase() makes
// a new string of each, which V8 must then internalize to use it as a
// property key (about 160 ns a header on Node 20, 12 of them for helmet's
// defaults). The names seen are remembered with their lower-case form, so a
// constant name costs one Map lookup and the key is already internalized.

/** @type {Map<string, string>} */
const lowerNames = new Map()

/**
 * Past this many distinct names (an application that puts an id in its
 * header names) the others are lowered each time, not remembered.
 */
const REMEMBERED = 1024

/**
 * `name.toLowerCase()`, remembered; what is not a string gets its own
 * toLowerCase() (or the TypeError of calling one it lacks), as before.
 * @param {string} name
 * @returns {string}
 */
export function lowerCaseName (name) {
  if (typeof name !== 'string') return /** @type {any} */ (name).toLowerCase()
  let lower = lowerNames.get(name)
  if (lower === undefined) {
    lower = name.toLowerCase()
    if (lowerNames.size < REMEMBERED) lowerNames.set(name, lower)
  }
  return lower
}
