import fastify from 'hotpath/fastify'

// Fastify's option types do not list hotpath's operations options; spread
// into the options they are taken as they are (docs/operations.md)
const operations = { health: '/health', drain: { delay: 5000 } }
fastify({ logger: true, ...operations })
