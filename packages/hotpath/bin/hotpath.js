#!/usr/bin/env node
// hotpath's command line: `hotpath check -- <test command>` (check/cli.js).
const [command, ...rest] = process.argv.slice(2)

if (command === 'check') {
  const { check } = await import('../check/cli.js')
  process.exitCode = await check(rest)
} else {
  process.stderr.write(`usage: hotpath check [options] -- <test command>   (hotpath check --help)\n${command === undefined || command === '-h' || command === '--help' ? '' : `unknown command: ${command}\n`}`)
  process.exitCode = command === '-h' || command === '--help' ? 0 : 2
}
