// Conformance: before a target is timed on a scenario, it must answer that
// scenario's request correctly (status, media type, exact body bytes, and
// the headers and content coding a scenario asks for), with pipelining when
// the scenario pipelines, and answer the scenario's bad inputs with the right
// 4xx. A target that fails is never timed. An HTTP/2 scenario is checked
// over h2c (prior knowledge), its in-flight requests as concurrent streams.

import zlib from 'node:zlib'
import { exchange } from './http-client.js'
import { exchangeH2 } from './h2-client.js'
import { protocolOf } from '../scenarios/index.js'

/** Media type without parameters, lower-case: 'application/json; charset=utf-8' → 'application/json'. */
export function mediaType (value) {
  return String(value || '').split(';')[0].trim().toLowerCase()
}

/** The charset parameter, lower-case, or null. */
export function charsetOf (value) {
  const m = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(String(value || ''))
  return m ? m[1].toLowerCase() : null
}

/**
 * What is wrong with one response, as a list of sentences (empty when right).
 * @param {import('../scenarios/index.js').LabExpect} expect
 * @param {import('./http-client.js').RawResponse} res
 * @returns {string[]}
 */
export function checkResponse (expect, res) {
  const problems = []
  if (expect.status === 0) {
    // a --cmd server: any 2xx is right
    if (res.status < 200 || res.status > 299) problems.push(`status ${res.status}, expected 2xx`)
    return problems
  }
  if (res.status !== expect.status) problems.push(`status ${res.status}, expected ${expect.status}`)
  const ct = res.headers['content-type']
  if (expect.type) {
    if (mediaType(ct) !== expect.type) problems.push(`content-type ${JSON.stringify(ct ?? null)}, expected ${expect.type}`)
    const cs = charsetOf(ct)
    if (cs !== null && cs !== 'utf-8') problems.push(`charset ${cs}, expected utf-8 or none`)
  }
  for (const [name, want] of Object.entries(expect.headers || {})) {
    const got = res.headers[name]
    const ok = got !== undefined && (want instanceof RegExp ? want.test(got) : got === want)
    if (!ok) problems.push(`${name} ${JSON.stringify(got ?? null)}, expected ${want instanceof RegExp ? `to match ${want}` : JSON.stringify(want)}`)
  }
  // The body is compared as the client reads it: decoded when a coding is
  // expected; a body the client did not ask to be coded must come as it is.
  let body = res.body
  const coding = String(res.headers['content-encoding'] ?? 'identity').trim().toLowerCase()
  const wantCoding = expect.encoding ?? 'identity'
  if (coding !== wantCoding && (expect.encoding || expect.body !== undefined)) {
    problems.push(`content-encoding ${JSON.stringify(res.headers['content-encoding'] ?? null)}, expected ${expect.encoding ?? 'none'}`)
    return problems
  }
  if (expect.encoding === 'gzip') {
    try {
      body = zlib.gunzipSync(res.body)
    } catch (err) {
      problems.push(`body is not valid gzip: ${err.message}`)
      return problems
    }
  }
  if (expect.body !== undefined) {
    const want = Buffer.from(expect.body)
    if (!body.equals(want)) {
      const got = body.length > 120 ? `${body.length} bytes` : JSON.stringify(body.toString())
      const exp = want.length > 120 ? `${want.length} bytes` : JSON.stringify(expect.body)
      problems.push(`body ${got}, expected ${exp}`)
    }
  }
  return problems
}

/**
 * Runs every check of a scenario against a server.
 * @param {{ port: number, host?: string, scenario: import('../scenarios/index.js').Scenario }} opts
 * @returns {Promise<{ ok: boolean, problems: string[], headBytes: number | null, bodyBytes: number | null }>}
 */
export async function checkTarget ({ port, host = '127.0.0.1', scenario }) {
  const problems = []
  let headBytes = null
  let bodyBytes = null
  const depth = scenario.pipelining || 1
  const h2 = protocolOf(scenario) === 'h2'
  const send = h2 ? exchangeH2 : exchange
  try {
    const responses = await send({ host, port, request: scenario.request, count: depth })
    responses.forEach((res, i) => {
      for (const p of checkResponse(scenario.expect, res)) problems.push(depth > 1 ? `${h2 ? 'stream' : 'pipelined response'} ${i + 1}: ${p}` : p)
    })
    headBytes = responses[0].headBytes
    bodyBytes = responses[0].body.length
  } catch (err) {
    problems.push(`request failed: ${err.message}`)
  }
  for (const check of scenario.extraChecks || []) {
    try {
      const [res] = await send({ host, port, request: check.request })
      for (const p of checkResponse(check.expect, res)) problems.push(`${check.name}: ${p}`)
    } catch (err) {
      problems.push(`${check.name}: request failed: ${err.message}`)
    }
  }
  return { ok: problems.length === 0, problems, headBytes, bodyBytes }
}
