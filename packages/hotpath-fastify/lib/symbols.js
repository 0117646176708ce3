'use strict'
// fastify/lib/symbols: Fastify's internal symbols by name; kRouteContext is read on hotpath's requests and replies
module.exports = require('hotpath/fastify/lib/symbols')
