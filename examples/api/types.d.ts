// The decorator app.js adds, typed for every context (docs/typescript.md).
import type { BookStore } from './store.js'

declare module 'hotpath' {
  interface HotpathInstance {
    store: BookStore
  }
}
