// Runs the lab's CLI in-process for a test: results go to a temporary
// directory removed after the test, stdout is collected, stderr dropped.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PassThrough } from 'node:stream'
import { main } from '../runner/cli.js'

/**
 * @param {import('node:test').TestContext} t
 * @param {string} name  the temporary directory's prefix
 * @param {string[]} args  the CLI's arguments, without --out
 */
export async function runCli (t, name, args) {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), `lab-${name}-`))
  t.after(() => fs.rmSync(out, { recursive: true, force: true }))
  const stdout = new PassThrough()
  let text = ''
  stdout.on('data', (d) => { text += d })
  const result = await main([...args, '--out', out], { stdout, stderr: new PassThrough().resume() })
  return { ...result, text }
}
