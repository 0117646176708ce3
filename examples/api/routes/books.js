// The /books resource. Registered under a prefix (`/api/v1` in app.js), so
// the paths here are relative to it.
import { HttpError } from 'hotpath'
import * as s from '../schemas.js'

/** @param {import('hotpath').HotpathInstance} api */
export default async function books (api) {
  // The decorator added in app.js; a child context sees its parent's.
  const store = /** @type {import('../store.js').BookStore} */ (/** @type {any} */ (api).store)
  api.get('/books', {
    schema: { querystring: s.listQuery, response: { 200: s.bookList, '4xx': s.error } }
  }, (req) => {
    // The schema coerced limit and offset to integers and filled in defaults.
    const query = /** @type {{ limit: number, offset: number, author?: string, tag?: string }} */ (/** @type {unknown} */ (req.query))
    const { total, items } = store.list(query)
    return { total, limit: query.limit, offset: query.offset, items }
  })

  api.get('/books/:id', {
    schema: { params: s.idParams, response: { 200: s.book, '4xx': s.error } }
  }, (req) => findBook(store, req.params))

  api.post('/books', {
    schema: { body: s.createBody, response: { 201: s.book, '4xx': s.error } }
  }, (req, reply) => {
    const book = store.create(/** @type {any} */ (req.body))
    req.log.info({ bookId: book.id }, 'book created')
    reply.code(201).header('location', `${req.path}/${book.id}`)
    return book
  })

  api.patch('/books/:id', {
    schema: { params: s.idParams, body: s.patchBody, response: { 200: s.book, '4xx': s.error } }
  }, (req) => {
    const book = findBook(store, req.params)
    return store.update(book.id, /** @type {any} */ (req.body))
  })

  api.delete('/books/:id', {
    schema: { params: s.idParams, response: { '4xx': s.error } }
  }, (req, reply) => {
    const book = findBook(store, req.params)
    store.remove(book.id)
    reply.code(204).send(null)
  })
}

/**
 * @param {import('../store.js').BookStore} store
 * @param {Record<string, unknown>} params  `id` already coerced to an integer by the schema
 */
function findBook (store, params) {
  const id = /** @type {number} */ (params.id)
  const book = store.get(id)
  if (book === undefined) throw new HttpError(404, `Book ${id} not found`, { code: 'BOOK_NOT_FOUND' })
  return book
}
