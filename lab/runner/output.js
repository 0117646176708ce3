// Writes a run's results: <date>-<node>-<host>.json (environment and every
// raw sample), .csv (one row per sample) and .html (the report).

import fs from 'node:fs'
import path from 'node:path'
import { renderCsv } from '../report/csv.js'
import { renderHtml } from '../report/html.js'

/** '2026-11-22T04-30-05Z-node20.20.2-myhost' */
export function baseName (results) {
  const date = results.startedAt.replace(/\.\d+Z$/, 'Z').replace(/:/g, '-')
  const nodes = results.env.nodes.map((v) => `node${v.replace(/^v/, '')}`).join('+')
  const host = String(results.env.host).replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 40)
  return `${date}-${nodes}-${host}`
}

/** @returns {{ json: string, csv: string, html: string | null }} */
export function writeResults (results, dir, { html = true } = {}) {
  fs.mkdirSync(dir, { recursive: true })
  const base = path.join(dir, baseName(results))
  const files = { json: `${base}.json`, csv: `${base}.csv`, html: html ? `${base}.html` : null }
  fs.writeFileSync(files.json, JSON.stringify(results, null, 2) + '\n')
  fs.writeFileSync(files.csv, renderCsv(results))
  if (files.html) fs.writeFileSync(files.html, renderHtml(results))
  return files
}
