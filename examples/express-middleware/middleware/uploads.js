// Uploads: multer to memory and to disk under /upload, and busboy used
// directly in a middleware under /busboy.
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import multer from 'multer'
import busboy from 'busboy'

/** multer's limit on one file under /upload/disk */
export const FILE_LIMIT = 64 * 1024

/**
 * @param {import('hotpath').HotpathInstance} app
 * @param {{ uploadDir: string }} settings
 */
export function uploads (app, settings) {
  const toMemory = multer({ storage: multer.memoryStorage(), limits: { fileSize: FILE_LIMIT } })
  const toDisk = multer({ dest: settings.uploadDir, limits: { fileSize: FILE_LIMIT } })

  app.register(async (api) => {
    api.use('/memory', toMemory.single('file'))
    api.use('/disk', toDisk.single('file'))
    // As an Express app answers multer's errors: an error middleware. A
    // file over the limit is the client's fault (413), not the server's.
    api.use((/** @type {any} */ err, /** @type {any} */ _req, /** @type {any} */ res, /** @type {Function} */ next) => {
      if (!(err instanceof multer.MulterError)) return next(err)
      res.statusCode = err.code === 'LIMIT_FILE_SIZE' ? 413 : 400
      res.setHeader('content-type', 'application/json; charset=utf-8')
      res.end(JSON.stringify({ statusCode: res.statusCode, code: err.code, message: err.message }))
    })

    api.post('/memory', (req) => {
      const file = /** @type {any} */ (req.raw).file
      return { fields: { ...(/** @type {object} */ (req.body)) }, file: file && { field: file.fieldname, name: file.originalname, type: file.mimetype, size: file.size, sha256: sha256(file.buffer) } }
    })
    api.post('/disk', async (req) => {
      const file = /** @type {any} */ (req.raw).file
      if (file === undefined) return { fields: { ...(/** @type {object} */ (req.body)) }, file: null }
      // multer wrote it under uploadDir: read it back to show what it stored
      const stored = await readFile(file.path)
      return { fields: { ...(/** @type {object} */ (req.body)) }, file: { field: file.fieldname, name: file.originalname, size: file.size, sha256: sha256(stored), path: file.path } }
    })
  }, { prefix: '/upload' })

  app.register(async (api) => {
    // busboy by hand: fields collected, each file streamed through a hash
    // (never buffered whole), then the result handed to the route as req.body.
    api.use((/** @type {any} */ req, /** @type {any} */ _res, /** @type {Function} */ next) => {
      if (!String(req.headers['content-type']).startsWith('multipart/form-data')) return next()
      /** @type {Record<string, string>} */
      const fields = {}
      /** @type {{ field: string, name: string, type: string, size: number, sha256: string, chunks: number }[]} */
      const files = []
      let bb
      try {
        bb = busboy({ headers: req.headers, limits: { files: 4, fileSize: 1024 * 1024 } })
      } catch (err) {
        return next(Object.assign(/** @type {Error} */ (err), { statusCode: 400 }))
      }
      bb.on('field', (name, value) => { fields[name] = value })
      bb.on('file', (field, stream, info) => {
        const hash = createHash('sha256')
        let size = 0
        let chunks = 0
        stream.on('data', (/** @type {Buffer} */ chunk) => { size += chunk.length; chunks++; hash.update(chunk) })
        stream.on('end', () => files.push({ field, name: info.filename, type: info.mimeType, size, sha256: hash.digest('hex'), chunks }))
      })
      bb.on('close', () => {
        req.body = { fields, files }
        next()
      })
      bb.on('error', (err) => next(Object.assign(/** @type {Error} */ (err), { statusCode: 400 })))
      req.pipe(bb)
    })
    api.post('/', (req) => req.body)
  }, { prefix: '/busboy' })
}

/** @param {Buffer} buf */
function sha256 (buf) {
  return createHash('sha256').update(buf).digest('hex')
}
