// Named sets of targets, scenarios and method for --profile. Explicit options
// override a profile's values. 'prefer-wrk' picks wrk when it is on the PATH:
// autocannon tops out near 45,000 req/s on one core, below what the fastest
// servers answer, which would compress their ratios. Goals are printed after a run (never asserted
// in tests): they are the performance targets the project has set itself.
// A profile may set its loader by name and its connection count.

/**
 * @typedef {object} Goal
 * @property {string} scenario
 * @property {string} target
 * @property {string} vs                   the other target
 * @property {'rps' | 'p99' | 'rss' | 'cpu'} metric   cpu: server CPU time per request
 * @property {number} ratio                rps: target/vs ≥ ratio; p99, rss, cpu: target/vs ≤ ratio
 * @property {string} source
 */

export const profiles = {
  default: {
    description: 'every target on the four core scenarios (about 4 minutes on 2 cores)',
    targets: ['all'],
    scenarios: ['hello', 'params', 'json-post', 'delay-1ms'],
    duration: 1,
    warmup: 1,
    rounds: 3
  },
  full: {
    description: 'every target on every scenario (about 15-20 minutes on 2 cores)',
    targets: ['all'],
    scenarios: ['all'],
    duration: 2,
    warmup: 1,
    rounds: 3
  },
  core: {
    description: 'hotpath on node:http against raw node:http and Fastify (about 5 minutes; wrk when installed)',
    loader: 'prefer-wrk',
    targets: ['node-http', 'hotpath-node', 'fastify'],
    scenarios: ['hello', 'params', 'json-post', 'delay-1ms', 'hooks'],
    duration: 3,
    warmup: 2,
    rounds: 5,
    goals: [
      { scenario: 'hello', target: 'hotpath-node', vs: 'node-http', metric: 'rps', ratio: 0.97, source: 'issue 2' },
      ...['hello', 'params', 'json-post', 'delay-1ms', 'hooks'].map((scenario) =>
        ({ scenario, target: 'hotpath-node', vs: 'fastify', metric: 'rps', ratio: 1.0, source: 'issue 2' }))
    ]
  },
  wire: {
    description: 'hotpath\'s wire engine against raw node:http and Fastify (about 6 minutes; wrk when installed)',
    loader: 'prefer-wrk',
    targets: ['node-http', 'fastify', 'hotpath-node', 'hotpath-wire'],
    scenarios: ['hello', 'pipelined', 'json-post', 'params', 'delay-1ms'],
    duration: 3,
    warmup: 2,
    rounds: 5,
    goals: [
      { scenario: 'hello', target: 'hotpath-wire', vs: 'node-http', metric: 'rps', ratio: 1.8, source: 'issue 4' },
      { scenario: 'hello', target: 'hotpath-wire', vs: 'fastify', metric: 'rps', ratio: 1.8, source: 'issue 4' },
      { scenario: 'pipelined', target: 'hotpath-wire', vs: 'node-http', metric: 'rps', ratio: 4, source: 'issue 4' },
      ...['json-post', 'params', 'delay-1ms'].map((scenario) =>
        ({ scenario, target: 'hotpath-wire', vs: 'fastify', metric: 'rps', ratio: 1.4, source: 'issue 4' })),
      { scenario: 'hello', target: 'hotpath-wire', vs: 'node-http', metric: 'p99', ratio: 1, source: 'issue 4 (p99 below node:http)' },
      { scenario: 'hello', target: 'hotpath-wire', vs: 'node-http', metric: 'rss', ratio: 1, source: 'issue 4 (RSS no higher)' }
    ]
  },
  floor: {
    description: 'hotpath\'s wire engine against the floor: a node:net server that writes a canned answer per request and does no HTTP work; two steps between them (the same server routing and serializing without an HTTP parser, then with hotpath\'s parser), and raw node:http beside them; hello, one request and ten pipelined per connection (about 3 minutes; wrk when installed)',
    loader: 'prefer-wrk',
    targets: ['net-canned', 'net-route', 'net-parsed', 'node-http', 'hotpath-wire'],
    scenarios: ['hello', 'pipelined'],
    duration: 3,
    warmup: 2,
    rounds: 5,
    goals: [
      { scenario: 'hello', target: 'hotpath-wire', vs: 'net-canned', metric: 'cpu', ratio: 1.1, source: 'project goal: hello within 1.1x of the floor' },
      { scenario: 'pipelined', target: 'hotpath-wire', vs: 'net-canned', metric: 'cpu', ratio: 1.5, source: 'project goal: pipelined within 1.5x of the floor' }
    ]
  },
  middleware: {
    description: 'the same Express middleware stack on Express, Polka and both hotpath engines (about 2 minutes; wrk when installed)',
    loader: 'prefer-wrk',
    targets: ['express', 'polka', 'hotpath-node', 'hotpath-wire'],
    scenarios: ['middleware'],
    duration: 3,
    warmup: 2,
    rounds: 5,
    goals: [
      { scenario: 'middleware', target: 'hotpath-wire', vs: 'express', metric: 'rps', ratio: 1.5, source: 'team goal: Express middleware on wire' }
    ]
  },
  plugins: {
    description: 'the same Fastify application and official plugins on Fastify and both hotpath engines (about 2 minutes; wrk when installed)',
    loader: 'prefer-wrk',
    targets: ['fastify', 'hotpath-node', 'hotpath-wire'],
    scenarios: ['plugin-stack'],
    duration: 3,
    warmup: 2,
    rounds: 5,
    goals: [
      { scenario: 'plugin-stack', target: 'hotpath-wire', vs: 'fastify', metric: 'rps', ratio: 2, source: 'issue 13' }
    ]
  },
  otel: {
    description: 'the cost of tracing: Fastify and both hotpath engines, each with and without OpenTelemetry (about 4 minutes; wrk when installed)',
    loader: 'prefer-wrk',
    targets: ['fastify', 'fastify-otel', 'hotpath-wire', 'hotpath-wire-otel', 'hotpath-node', 'hotpath-node-otel'],
    scenarios: ['hello', 'params'],
    duration: 3,
    warmup: 2,
    rounds: 5
  },
  startup: {
    description: 'start-up of an app of 100 / 1,000 / 10,000 POST routes with params, body and response schemas: import to ready() and to the first answer, per process, hotpath against Fastify, Express and Hono (5 rounds; 10,000 routes 1 round; about 4 minutes)',
    mode: 'startup',
    targets: ['hotpath', 'fastify', 'express', 'hono'],
    // a Fastify process of 10,000 such routes takes about 40 s on one core
    routes: [100, 1000, 10000],
    rounds: 5,
    roundsBySize: { 10000: 1 },
    timeout: 120,
    scenarios: ['hello'],
    duration: 1,
    warmup: 0
  },
  idle: {
    description: 'memory per idle keep-alive connection: 10,000 connections, each after one request, held open on every HTTP/1.1 target and on raw node:net (the floor); RSS and heap growth per connection, GC forced (3 rounds; about 8 minutes on 2 cores)',
    mode: 'idle',
    // every HTTP/1.1 target of targets/index.js, after net-canned (runner/idle.js)
    targets: ['all'],
    connections: 10000,
    rounds: 3,
    // connections being opened at once: below Node's listen backlog (511)
    concurrency: 100,
    // every server's keep-alive timeout while its connections are held:
    // longer than opening and measuring 10,000 of them takes on any target
    keepAliveMs: 600_000,
    scenarios: ['hello'],
    duration: 1,
    warmup: 0
  },
  h2: {
    description: 'HTTP/2 (h2c, prior knowledge): raw node:http2, Fastify and hotpath with http2, timed by h2load, 10 connections x 10 streams (about 1 minute; needs h2load, Debian: nghttp2-client)',
    loader: 'h2load',
    targets: ['node-http2', 'fastify-h2', 'hotpath-h2'],
    scenarios: ['h2-hello'],
    connections: 10,
    duration: 3,
    warmup: 2,
    rounds: 5,
    goals: [
      { scenario: 'h2-hello', target: 'hotpath-h2', vs: 'fastify-h2', metric: 'rps', ratio: 1.5, source: 'project goal: HTTP/2 engine' }
    ]
  }
}
