// hotpath/fastify: hotpath with Fastify 5's defaults; the same types, under
// hotpath's names and Fastify's (index.d.ts, "Fastify's names").
import hotpath, { HotpathInstance, HotpathOptions } from './index.js'

export * from './index.js'
declare function fastify(options?: HotpathOptions): HotpathInstance
export default fastify
export { fastify, hotpath }
