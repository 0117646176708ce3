'use strict'
// Loads the application's TypeScript sources as CommonJS, compiled in memory
// by TypeScript (with experimentalDecorators and emitDecoratorMetadata, as
// tsconfig.json sets them), and makes the same application on hotpath and on
// Fastify, to compare their answers.
require('reflect-metadata')
const { readFileSync } = require('node:fs')
const { dirname, join } = require('node:path')
const ts = require('typescript')

const root = join(__dirname, '..')
const { options: compilerOptions } = ts.convertCompilerOptionsFromJson(
  JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8')).compilerOptions, root)

require.extensions['.ts'] = (module, filename) => {
  const { outputText } = ts.transpileModule(readFileSync(filename, 'utf8'), {
    compilerOptions: { ...compilerOptions, sourceMap: false, inlineSourceMap: true },
    fileName: filename
  })
  module._compile(outputText, filename)
}

const { createApp } = require('../src/app.ts')

// Fastify itself: the copy @nestjs/platform-fastify loads
const fastify = require(require.resolve('fastify', {
  paths: [dirname(require.resolve('@nestjs/platform-fastify/package.json'))]
}))

module.exports = { createApp, fastify, root }
