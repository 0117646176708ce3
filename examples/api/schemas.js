// JSON Schemas of the API. hotpath compiles them once at ready(): the
// validators check params, query and bodies; the response schemas compile
// the serializers (and keep fields they do not list, such as `revision`,
// out of the replies). Each is a literal (`@type {const}`), so that the
// json-schema-to-ts provider types the routes' requests and replies from
// them (app.js imports it; docs/typescript.md).

export const book = /** @type {const} */ ({
  type: 'object',
  properties: {
    id: { type: 'integer' },
    title: { type: 'string' },
    author: { type: 'string' },
    year: { type: 'integer' },
    tags: { type: 'array', items: { type: 'string' } },
    createdAt: { type: 'string', format: 'date-time' }
  },
  required: ['id', 'title', 'author', 'tags', 'createdAt']
})

/** The body of every 4xx/5xx answer. */
export const error = /** @type {const} */ ({
  type: 'object',
  properties: {
    statusCode: { type: 'integer' },
    error: { type: 'string' },
    message: { type: 'string' },
    code: { type: 'string' },
    // validation failures list what was wrong, field by field
    validation: { type: 'array', items: { type: 'object', additionalProperties: true } }
  },
  required: ['statusCode', 'error', 'message']
})

export const idParams = /** @type {const} */ ({
  type: 'object',
  properties: { id: { type: 'integer', minimum: 1 } },
  required: ['id']
})

export const listQuery = /** @type {const} */ ({
  type: 'object',
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    offset: { type: 'integer', minimum: 0, default: 0 },
    author: { type: 'string', maxLength: 100 },
    tag: { type: 'string', maxLength: 50 }
  },
  additionalProperties: false
})

const bookFields = /** @type {const} */ ({
  title: { type: 'string', minLength: 1, maxLength: 200 },
  author: { type: 'string', minLength: 1, maxLength: 100 },
  year: { type: 'integer', minimum: -3000, maximum: 3000 },
  tags: { type: 'array', items: { type: 'string', maxLength: 50 }, maxItems: 20 }
})

export const createBody = /** @type {const} */ ({
  type: 'object',
  properties: bookFields,
  required: ['title', 'author'],
  additionalProperties: false
})

export const patchBody = /** @type {const} */ ({
  type: 'object',
  properties: bookFields,
  minProperties: 1,
  additionalProperties: false
})

export const bookList = /** @type {const} */ ({
  type: 'object',
  properties: {
    total: { type: 'integer' },
    limit: { type: 'integer' },
    offset: { type: 'integer' },
    items: { type: 'array', items: book }
  },
  required: ['total', 'limit', 'offset', 'items']
})
