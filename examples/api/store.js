// An in-memory book store. A real service would talk to a database here;
// the routes only see these five methods, so swapping it is one file.

/**
 * @typedef {object} Book
 * @property {number} id
 * @property {string} title
 * @property {string} author
 * @property {number} [year]
 * @property {string[]} tags
 * @property {string} createdAt   ISO date
 * @property {number} revision    internal; the response schema keeps it out of replies
 */

export class BookStore {
  /** @param {Array<Omit<Book, 'id' | 'createdAt' | 'revision' | 'tags'> & { tags?: string[] }>} [seed] */
  constructor (seed = []) {
    /** @type {Map<number, Book>} */
    this.books = new Map()
    this.nextId = 1
    for (const book of seed) this.create(book)
  }

  /**
   * @param {{ limit: number, offset: number, author?: string, tag?: string }} query
   * @returns {{ total: number, items: Book[] }}
   */
  list ({ limit, offset, author, tag }) {
    let all = [...this.books.values()]
    if (author !== undefined) {
      const needle = author.toLowerCase()
      all = all.filter((b) => b.author.toLowerCase().includes(needle))
    }
    if (tag !== undefined) all = all.filter((b) => b.tags.includes(tag))
    return { total: all.length, items: all.slice(offset, offset + limit) }
  }

  /** @param {number} id */
  get (id) {
    return this.books.get(id)
  }

  /** @param {{ title: string, author: string, year?: number, tags?: string[] }} input */
  create (input) {
    /** @type {Book} */
    const book = {
      id: this.nextId++,
      title: input.title,
      author: input.author,
      year: input.year,
      tags: input.tags ?? [],
      createdAt: new Date().toISOString(),
      revision: 1
    }
    this.books.set(book.id, book)
    return book
  }

  /**
   * @param {number} id
   * @param {Partial<Pick<Book, 'title' | 'author' | 'year' | 'tags'>>} changes
   */
  update (id, changes) {
    const book = this.books.get(id)
    if (book === undefined) return undefined
    Object.assign(book, changes)
    book.revision++
    return book
  }

  /** @param {number} id */
  remove (id) {
    return this.books.delete(id)
  }
}
