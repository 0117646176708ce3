// The /books resource. Registered under a prefix (`/api/v1` in app.js), so
// the paths here are relative to it.
import { HttpError } from 'hotpath'
import * as s from '../schemas.js'

// No type is written for a route: each one's request and replies are typed
// from its schemas (schemas.js) by the json-schema-to-ts provider app.js
// imports; `npm run typecheck -w hotpath` checks this file with them.

/** @param {import('hotpath').HotpathInstance} api */
export default async function books (api) {
  // The decorator added in app.js (typed in types.d.ts); a child context
  // sees its parent's.
  const store = api.store
  api.get('/books', {
    schema: { querystring: s.listQuery, response: { 200: s.bookList, '4xx': s.error } }
  }, (req) => {
    // The schema coerced limit and offset to integers and filled in
    // defaults: req.query.limit is a number here.
    const { total, items } = store.list(req.query)
    return { total, limit: req.query.limit, offset: req.query.offset, items }
  })

  api.get('/books/:id', {
    schema: { params: s.idParams, response: { 200: s.book, '4xx': s.error } }
  }, (req) => findBook(store, req.params.id))

  api.post('/books', {
    schema: { body: s.createBody, response: { 201: s.book, '4xx': s.error } }
  }, (req, reply) => {
    const book = store.create(req.body)
    req.log.info({ bookId: book.id }, 'book created')
    reply.code(201).header('location', `${req.path}/${book.id}`)
    return book
  })

  api.patch('/books/:id', {
    schema: { params: s.idParams, body: s.patchBody, response: { 200: s.book, '4xx': s.error } }
  }, (req) => {
    const book = findBook(store, req.params.id)
    return store.update(book.id, req.body)
  })

  api.delete('/books/:id', {
    schema: { params: s.idParams, response: { '4xx': s.error } }
  }, (req, reply) => {
    const book = findBook(store, req.params.id)
    store.remove(book.id)
    reply.code(204).send(null)
  })
}

/**
 * @param {import('../store.js').BookStore} store
 * @param {number} id  coerced to an integer by the params schema
 */
function findBook (store, id) {
  const book = store.get(id)
  if (book === undefined) throw new HttpError(404, `Book ${id} not found`, { code: 'BOOK_NOT_FOUND' })
  return book
}
