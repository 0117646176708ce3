// The official Fastify plugins whose own test suites the ecosystem measure
// runs, at the versions the page reports, and those it does not run, with
// why. Add a plugin here, rerun `npm run ecosystem`, and the page lists it.
//
// An entry says only how the plugin's published suite is installed and run,
// as its own package.json's test script runs it:
//   runner       'node' (node --test, the default) or 'tap' (each file run by
//                itself, its TAP output read)
//   files        the test files, as patterns, where the runner's configuration
//                lists them (default: test/**/*.test.{js,cjs,mjs}, else the
//                files in test/ that load the runner)
//   env          variables the test script sets
//   build        a command its test script runs before the tests (a
//                production build of a fixture app), run once after the
//                install, with `env`
//   skip         test files not run, each with why
//   testTimeout  node --test's per-test limit where the script sets a longer
//                one (default 15 s)

/**
 * @typedef {{ name: string, version: string, runner?: 'node' | 'tap', files?: string[],
 *   skip?: Record<string, string>, env?: Record<string, string>, build?: string[], testTimeout?: number }} Plugin
 */

/** @type {Plugin[]} */
export const plugins = [
  { name: '@fastify/accepts', version: '5.0.6' },
  { name: '@fastify/accepts-serializer', version: '6.0.3' },
  { name: '@fastify/ajv-compiler', version: '4.0.8' },
  { name: '@fastify/auth', version: '5.1.1' },
  { name: '@fastify/autoload', version: '6.5.0', files: ['test/issues/*/test.js', 'test/commonjs/*.js', 'test/module/*.js'] },
  { name: '@fastify/basic-auth', version: '6.3.0' },
  { name: '@fastify/bearer-auth', version: '10.1.3' },
  { name: '@fastify/caching', version: '9.0.4' },
  { name: '@fastify/circuit-breaker', version: '4.0.3' },
  { name: '@fastify/compress', version: '9.2.0' },
  { name: '@fastify/cookie', version: '11.1.5' },
  { name: '@fastify/cors', version: '11.4.3' },
  { name: '@fastify/csrf-protection', version: '8.0.2' },
  { name: '@fastify/diagnostics-channel', version: '5.0.0', runner: 'tap' },
  { name: '@fastify/env', version: '7.0.0', env: { VALUE_FROM_ENV: 'pippo' } },
  { name: '@fastify/etag', version: '6.2.0' },
  { name: '@fastify/express', version: '4.0.7' },
  { name: '@fastify/formbody', version: '9.0.1' },
  { name: '@fastify/helmet', version: '13.2.0' },
  { name: '@fastify/http-proxy', version: '11.6.3' },
  { name: '@fastify/jwt', version: '10.2.8' },
  { name: '@fastify/leveldb', version: '6.1.1' },
  { name: '@fastify/middie', version: '9.3.6' },
  { name: '@fastify/multipart', version: '10.1.9' },
  { name: '@fastify/nextjs', version: '11.0.0', runner: 'tap', env: { NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' }, build: ['node_modules/.bin/next', 'build'] },
  { name: '@fastify/oauth2', version: '8.3.0' },
  { name: '@fastify/one-line-logger', version: '2.2.0' },
  { name: '@fastify/otel', version: '0.21.2' },
  { name: '@fastify/rate-limit', version: '11.2.0' },
  { name: '@fastify/reply-from', version: '12.6.5', testTimeout: 30_000 },
  { name: '@fastify/response-validation', version: '3.0.4' },
  { name: '@fastify/routes', version: '6.0.3' },
  { name: '@fastify/secure-session', version: '8.4.0' },
  { name: '@fastify/sensible', version: '6.0.6' },
  { name: '@fastify/static', version: '10.1.11' },
  { name: '@fastify/swagger', version: '9.9.3' },
  { name: '@fastify/swagger-ui', version: '6.1.3' },
  { name: '@fastify/throttle', version: '3.0.2', runner: 'tap' },
  { name: '@fastify/under-pressure', version: '9.2.0' },
  { name: '@fastify/url-data', version: '6.0.4' },
  { name: '@fastify/view', version: '12.0.0' },
  { name: '@fastify/websocket', version: '11.3.6' },
  { name: '@fastify/zipkin', version: '4.0.3' }
]

const server = (what) => `its tests need ${/^[AEIOU]/.test(what) ? 'an' : 'a'} ${what} server`
const unpublished = 'its package does not ship its tests'

/** Official plugins the measure does not run, and why (checked against each published package). */
export const notRun = [
  { name: '@fastify/awilix', why: unpublished },
  { name: '@fastify/early-hints', why: 'its latest release (1.0.1) is for Fastify 4: fastify-plugin refuses it on Fastify 5' },
  { name: '@fastify/elasticsearch', why: server('Elasticsearch') },
  { name: '@fastify/error', why: 'a library, not a plugin: its tests do not load Fastify' },
  { name: '@fastify/flash', why: unpublished },
  { name: '@fastify/funky', why: unpublished },
  { name: '@fastify/kafka', why: server('Kafka') },
  { name: '@fastify/mongodb', why: server('MongoDB') },
  { name: '@fastify/mysql', why: server('MySQL') },
  { name: '@fastify/passport', why: unpublished },
  { name: '@fastify/postgres', why: server('PostgreSQL') },
  { name: '@fastify/react', why: 'its one published test file does not load Fastify' },
  { name: '@fastify/redis', why: server('Redis') },
  { name: '@fastify/request-context', why: unpublished },
  { name: '@fastify/schedule', why: unpublished },
  { name: '@fastify/routes-stats', why: 'its latest release (3.4.0) is for Fastify 4: fastify-plugin refuses it on Fastify 5' },
  { name: '@fastify/session', why: unpublished },
  { name: '@fastify/type-provider-json-schema-to-ts', why: unpublished },
  { name: '@fastify/type-provider-typebox', why: unpublished },
  { name: '@fastify/vite', why: 'its package ships only a compiled Vitest file, which needs a Vite build' }
]

/**
 * Development dependencies a plugin's unit tests do not need: linters, type
 * checkers, coverage and benchmark tools, and the clients of databases the
 * tests would need a server for (those tests fail on Fastify too, and are not
 * counted).
 */
export const unneeded = /^(@types\/|@typescript-eslint\/|eslint|neostandard|standard|snazzy|tsd$|tstyche$|typescript$|c8$|nyc$|borp$|benchmark$|autocannon$|cronometro$|climem$|@jsumners\/line-reporter$|fastify-tsconfig$|@fastify\/type-provider-|typebox$|ioredis$|knex$|sqlite3$|@fastify\/leveldb$|h2url$|pre-commit$|husky$)/
