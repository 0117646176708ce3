'use strict'
// require('fastify') when this package is installed as `fastify`: hotpath's
// Fastify API (hotpath/fastify), with `fastify`, `default` and `errorCodes`
// on it, as Fastify's own entry has them (ES modules importing it by name
// read these assignments).
const fastify = require('hotpath/fastify')

module.exports = fastify
module.exports.fastify = fastify
module.exports.default = fastify
module.exports.errorCodes = fastify.errorCodes
