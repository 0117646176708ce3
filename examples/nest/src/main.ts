import 'reflect-metadata'
import { createApp } from './app'

async function main (): Promise<void> {
  const engine = (process.env.ENGINE ?? 'wire') as 'wire' | 'node' | 'h2'
  const app = await createApp({ engine })
  await app.listen({ port: Number(process.env.PORT ?? 3000), host: '127.0.0.1' })
  console.log(`listening on ${await app.getUrl()} (engine: ${engine})`)
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
