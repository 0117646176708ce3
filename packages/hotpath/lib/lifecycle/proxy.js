// trustProxy: which peers may tell us the client address via
// X-Forwarded-For. Compiled once into a predicate (address, hop) → boolean.
import { isIP } from 'node:net'
import { createError } from '../errors.js'

/** @typedef {(address: string, hop: number) => boolean} TrustFn */

const NAMED = /** @type {Record<string, string[]>} */ ({
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7']
})

/**
 * @param {unknown} option
 * @returns {TrustFn | null}
 */
export function compileTrust (option) {
  if (option === undefined || option === false || option === null) return null
  if (option === true) return () => true
  if (typeof option === 'number') {
    if (!Number.isInteger(option) || option < 0) throw createError('HP_ERR_INVALID_OPTION', 'trustProxy', 'a hop count must be a non-negative integer')
    return (_address, hop) => hop < option
  }
  if (typeof option === 'function') return /** @type {TrustFn} */ (option)
  const list = typeof option === 'string' ? option.split(',').map((s) => s.trim()) : option
  if (!Array.isArray(list)) throw createError('HP_ERR_INVALID_OPTION', 'trustProxy', 'expected a boolean, number, string, array or function')
  /** @type {((address: string) => boolean)[]} */
  const matchers = []
  for (const entry of list) {
    for (const item of NAMED[entry] ?? [entry]) matchers.push(compileMatcher(item))
  }
  return (address) => {
    for (let i = 0; i < matchers.length; i++) if (matchers[i](address)) return true
    return false
  }
}

/** @param {string} entry */
function compileMatcher (entry) {
  const slash = entry.indexOf('/')
  const ip = normalize(slash === -1 ? entry : entry.slice(0, slash))
  const family = isIP(ip)
  if (family === 0) throw createError('HP_ERR_INVALID_OPTION', 'trustProxy', `'${entry}' is not an address or CIDR range`)
  const bits = slash === -1 ? (family === 4 ? 32 : 128) : Number(entry.slice(slash + 1))
  const base = toBigInt(ip, family)
  const width = family === 4 ? 32 : 128
  const mask = bits === 0 ? 0n : ((1n << BigInt(bits)) - 1n) << BigInt(width - bits)
  const net = base & mask
  return (/** @type {string} */ address) => {
    const a = normalize(address)
    const f = isIP(a)
    return f === family && (toBigInt(a, f) & mask) === net
  }
}

/** IPv4-mapped IPv6 (::ffff:1.2.3.4) compares as IPv4. @param {string} ip */
function normalize (ip) {
  return ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip
}

/**
 * @param {string} ip
 * @param {number} family
 */
function toBigInt (ip, family) {
  if (family === 4) {
    let n = 0n
    for (const part of ip.split('.')) n = (n << 8n) | BigInt(Number(part))
    return n
  }
  const [head, tail = ''] = ip.split('::')
  const h = head === '' ? [] : head.split(':')
  const t = tail === '' ? [] : tail.split(':')
  // An embedded IPv4 tail counts as two groups.
  const expand = (/** @type {string[]} */ groups) => groups.flatMap((g) => {
    if (g.includes('.')) {
      const v = Number(toBigInt(g, 4))
      return [(v >>> 16).toString(16), (v & 0xffff).toString(16)]
    }
    return [g]
  })
  const hh = expand(h)
  const tt = expand(t)
  const groups = ip.includes('::') ? [...hh, ...Array(8 - hh.length - tt.length).fill('0'), ...tt] : hh
  let n = 0n
  for (const g of groups) n = (n << 16n) | BigInt(parseInt(g, 16))
  return n
}

/**
 * Walks X-Forwarded-For from the nearest hop outwards while each hop is
 * trusted; the first untrusted address is the client.
 * @param {string | undefined} socketAddress
 * @param {string | string[] | undefined} xff
 * @param {TrustFn} trust
 */
export function proxyAddress (socketAddress, xff, trust) {
  let address = socketAddress
  if (address === undefined || typeof xff !== 'string') return address
  const hops = xff.split(',')
  let hop = 0
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!trust(address, hop++)) return address
    address = hops[i].trim()
  }
  return address
}

/**
 * req.ips: the socket peer, then each X-Forwarded-For hop for as long as
 * the address before it is trusted (closest first, as proxy-addr's all()).
 * Without trustProxy the header is anyone's word, so only the peer counts.
 * @param {string | undefined} socketAddress
 * @param {unknown} xff
 * @param {TrustFn | null} trust
 * @returns {Array<string | undefined>}
 */
export function proxyAddresses (socketAddress, xff, trust) {
  /** @type {Array<string | undefined>} */
  const out = [socketAddress]
  if (trust === null || socketAddress === undefined || typeof xff !== 'string') return out
  const hops = xff.split(',')
  let address = socketAddress
  let hop = 0
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!trust(address, hop++)) break
    address = hops[i].trim()
    out.push(address)
  }
  return out
}
