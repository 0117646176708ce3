// hotpath/fastify's entry: Fastify's declarations, as ../fastify.d.ts
// re-exports them. Reached through a package lookup ('hotpath/...'), which
// TypeScript resolves to hotpath's real folder, so that ../fastify.d.ts finds
// the `fastify` package beside hotpath even when this file was reached by a
// relative path through a symbolic link. This folder's package.json has no
// name, so the lookup is not read as hotpath naming itself (which would keep
// the link's path).
export * from 'hotpath/fastify/declarations'
export { default } from 'hotpath/fastify/declarations'
