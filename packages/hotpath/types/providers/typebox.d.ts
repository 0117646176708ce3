// Request types inferred from TypeBox 1.x schemas (the `typebox` package):
//   import 'hotpath/typebox'
// once, anywhere in the program (docs/typescript.md).
import type { Static, TSchema } from 'typebox'
import type { TypeProvider } from '../index.js'

export interface TypeBoxProvider extends TypeProvider {
  readonly validator: this['schema'] extends TSchema ? Static<this['schema']> : never
  readonly serializer: this['schema'] extends TSchema ? Static<this['schema']> : never
}

declare module '../index.js' {
  interface TypeProviders {
    typebox: TypeBoxProvider
  }
}
