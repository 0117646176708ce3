// The HTML report renders in a real browser: headless Chromium loads it with
// no network, and the DOM it builds has the charts and the tables. Skipped,
// with a message, where Chromium is not installed.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { execFileSync, spawnSync } from 'node:child_process'
import { fakeResults } from './fixture.js'
import { renderHtml } from '../report/html.js'

function findChromium () {
  for (const p of ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome']) if (fs.existsSync(p)) return p
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    try { return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || null } catch {}
  }
  return null
}

// LAB_CHROMIUM names another browser binary, or 'none' to check the skip path
const chromium = process.env.LAB_CHROMIUM === 'none' ? null : process.env.LAB_CHROMIUM || findChromium()

test('the HTML report renders in headless Chromium', {
  skip: chromium ? false : 'Chromium not found (Debian: apt-get install chromium); HTML rendering not checked',
  timeout: 60000
}, (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-html-'))
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }))
  const file = path.join(dir, 'report.html')
  fs.writeFileSync(file, renderHtml(fakeResults()))
  const flags = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--no-first-run', `--user-data-dir=${path.join(dir, 'profile')}`]
  const dom = spawnSync(chromium, [...flags, '--dump-dom', `file://${file}`], { encoding: 'utf8', timeout: 45000 })
  assert.equal(dom.status, 0, dom.stderr)
  // the DOM as Chromium parsed it: both charts, with their drawn elements
  assert.equal((dom.stdout.match(/<svg [^>]*class="bars"/g) || []).length, 1)
  assert.equal((dom.stdout.match(/<svg [^>]*class="curves"/g) || []).length, 1)
  assert.ok((dom.stdout.match(/<rect /g) || []).length >= 2, 'bars are drawn')
  assert.ok((dom.stdout.match(/<path d="M/g) || []).length >= 2, 'latency curves are drawn')
  assert.match(dom.stdout, /<td>node-http<\/td><td>31,000<\/td>/)
  const png = path.join(dir, 'shot.png')
  const shot = spawnSync(chromium, [...flags, `--screenshot=${png}`, '--window-size=1000,1400', `file://${file}`], { encoding: 'utf8', timeout: 45000 })
  assert.equal(shot.status, 0, shot.stderr)
  const bytes = fs.readFileSync(png)
  assert.equal(bytes.subarray(1, 4).toString(), 'PNG')
  assert.ok(bytes.length > 5000, 'the screenshot is not blank')
})
