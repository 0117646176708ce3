// The production entry: `node server.js` (PORT, default 3000).
import { build } from './app.js'

const app = build({ logger: process.env.LOG === '1' })
const address = await app.listen({ port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? '127.0.0.1' })
if (process.send) process.send({ address })
else console.log(`listening on ${address}`)
