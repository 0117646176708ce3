// Request types inferred from TypeBox 0.3x schemas (`@sinclair/typebox`):
//   import 'hotpath/sinclair-typebox'
// once, anywhere in the program (docs/typescript.md).
import type { Static, TSchema } from '@sinclair/typebox'
import type { TypeProvider } from '../index.js'

export interface SinclairTypeBoxProvider extends TypeProvider {
  readonly validator: this['schema'] extends TSchema ? Static<this['schema']> : never
  readonly serializer: this['schema'] extends TSchema ? Static<this['schema']> : never
}

declare module '../index.js' {
  interface TypeProviders {
    sinclairTypebox: SinclairTypeBoxProvider
  }
}
