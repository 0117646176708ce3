// hotpath/fastify: hotpath with Fastify 5's defaults; the same types.
import hotpath, { HotpathInstance, HotpathOptions } from './index.js'

export * from './index.js'
declare function fastify(options?: HotpathOptions): HotpathInstance
export default fastify
export { fastify, hotpath }
