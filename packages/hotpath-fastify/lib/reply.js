'use strict'
// fastify/lib/reply: Fastify's Reply built around a bare Node response (NestJS's adapter uses it)
module.exports = require('hotpath/fastify/lib/reply')
