'use strict'
// fastify/lib/errors: Fastify's error constructors by code; an error hotpath/fastify raises with one of them is an instance of it
module.exports = require('hotpath/fastify/lib/errors')
