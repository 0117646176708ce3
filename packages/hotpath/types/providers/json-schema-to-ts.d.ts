// Request types inferred from plain JSON Schema literals, by
// json-schema-to-ts's FromSchema:
//   import 'hotpath/json-schema-to-ts'
// once, anywhere in the program (docs/typescript.md). Route schemas written
// inline are read as literals; a schema kept in a variable needs `as const`.
import type { FromSchema, JSONSchema } from 'json-schema-to-ts'
import type { TypeProvider } from '../index.js'

export interface JsonSchemaToTsProvider extends TypeProvider {
  readonly validator: this['schema'] extends JSONSchema ? FromSchema<this['schema']> : never
  readonly serializer: this['schema'] extends JSONSchema ? FromSchema<this['schema']> : never
}

declare module '../index.js' {
  interface TypeProviders {
    jsonSchemaToTs: JsonSchemaToTsProvider
  }
}
