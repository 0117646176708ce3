// The official Fastify plugins whose own test suites the ecosystem measure
// runs, at the versions the page reports. Their npm packages ship their
// tests. Add a plugin here, rerun `npm run ecosystem`, and the page lists it.
export const plugins = [
  { name: '@fastify/auth', version: '5.1.1' },
  { name: '@fastify/compress', version: '9.2.0' },
  { name: '@fastify/cookie', version: '11.1.5' },
  { name: '@fastify/cors', version: '11.4.3' },
  { name: '@fastify/formbody', version: '9.0.1' },
  { name: '@fastify/helmet', version: '13.2.0' },
  { name: '@fastify/jwt', version: '10.2.8' },
  { name: '@fastify/multipart', version: '10.1.9' },
  { name: '@fastify/rate-limit', version: '11.2.0' },
  { name: '@fastify/sensible', version: '6.0.6' },
  { name: '@fastify/static', version: '10.1.11' },
  { name: '@fastify/swagger', version: '9.9.3' },
  { name: '@fastify/websocket', version: '11.3.6' }
]

/**
 * Development dependencies a plugin's unit tests do not need: linters, type
 * checkers, coverage and benchmark tools, and the clients of databases the
 * tests would need a server for (those tests fail on Fastify too, and are not
 * counted).
 */
export const unneeded = /^(@types\/|@typescript-eslint\/|eslint|neostandard|standard|snazzy|tsd$|tstyche$|typescript$|c8$|nyc$|borp$|benchmark$|autocannon$|climem$|@jsumners\/line-reporter$|fastify-tsconfig$|@fastify\/type-provider-|typebox$|ioredis$|knex$|sqlite3$|@fastify\/leveldb$|h2url$|pre-commit$|husky$)/
