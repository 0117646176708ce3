// `cors` ships no types; this is the part of its signature the tests use
// (a connect middleware factory), enough to check that app.use() accepts it.
declare module 'cors' {
  import type { IncomingMessage, ServerResponse } from 'node:http'
  export default function cors (options?: { origin?: string | boolean }): (
    req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void
  ) => void
}
