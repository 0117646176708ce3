'use strict'
// Jest in its default mode: every file is loaded as CommonJS by Jest's own
// module loader (not Node's), which resolves a package's `require` export
// condition; the JavaScript files run as written, the TypeScript ones go
// through ts-jest.
module.exports = {
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/**/*.spec.{js,ts}'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }] },
  watchman: false
}
