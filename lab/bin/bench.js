#!/usr/bin/env node
// Entry point of `npm run bench` (see lab/README.md and --help).
import { main } from '../runner/cli.js'

const { code } = await main(process.argv.slice(2))
process.exitCode = code
