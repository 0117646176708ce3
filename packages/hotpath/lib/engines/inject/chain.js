// app.inject() without a callback: a request built by chained calls, as
// light-my-request's Chain (Fastify's inject()) builds it:
// app.inject().post('/users').headers({ ... }).payload({ ... }).end(),
// starting from the options given (app.inject({ url }).headers({ ... })).
// It is sent by end(), by then()/catch()/finally(), or on the next tick
// when none of them was called (unless the options say autoStart: false).

const SENT = 'The dispatch function has already been invoked'

export class InjectChain {
  /**
   * @param {(options: Record<string, any>, callback?: Function) => Promise<any> | undefined} send  app.inject
   * @param {Record<string, any>} [options]  what the chain starts from
   */
  constructor (send, options = {}) {
    this._send = send
    /** @type {Record<string, any>} */
    this._options = { ...options }
    this._sent = false
    /** @type {Promise<any> | null} */
    this._promise = null
    if (options.autoStart !== false) process.nextTick(() => { if (!this._sent) this.end() })
  }

  /**
   * @param {string} key
   * @param {unknown} value
   */
  _set (key, value) {
    if (this._sent) throw new Error(SENT)
    this._options[key] = value
    return this
  }

  /**
   * @param {string} method
   * @param {string} url
   */
  _route (method, url) {
    this._set('url', url)
    return this._set('method', method)
  }

  /** @param {string} url */ delete (url) { return this._route('DELETE', url) }
  /** @param {string} url */ get (url) { return this._route('GET', url) }
  /** @param {string} url */ head (url) { return this._route('HEAD', url) }
  /** @param {string} url */ options (url) { return this._route('OPTIONS', url) }
  /** @param {string} url */ patch (url) { return this._route('PATCH', url) }
  /** @param {string} url */ post (url) { return this._route('POST', url) }
  /** @param {string} url */ put (url) { return this._route('PUT', url) }
  /** @param {string} url */ trace (url) { return this._route('TRACE', url) }
  /** @param {unknown} value */ body (value) { return this._set('body', value) }
  /** @param {unknown} value */ cookies (value) { return this._set('cookies', value) }
  /** @param {unknown} value */ headers (value) { return this._set('headers', value) }
  /** @param {unknown} value */ payload (value) { return this._set('payload', value) }
  /** @param {unknown} value */ query (value) { return this._set('query', value) }

  /**
   * Sends the request: a promise of the response, or callback(err, res).
   * @param {(err: Error | null, res?: any) => void} [callback]
   */
  end (callback) {
    if (this._sent) throw new Error(SENT)
    this._sent = true
    if (typeof callback === 'function') {
      this._send(this._options, callback)
      return undefined
    }
    // options refused when sent: a rejection, not a throw on a later tick
    try {
      this._promise = /** @type {Promise<any>} */ (this._send(this._options))
    } catch (err) {
      this._promise = Promise.reject(err)
    }
    return this._promise
  }

  _started () {
    if (this._promise !== null) return this._promise
    return /** @type {Promise<any>} */ (this.end())
  }

  /**
   * @param {((res: any) => any) | null} [onFulfilled]
   * @param {((err: any) => any) | null} [onRejected]
   */
  then (onFulfilled, onRejected) { return this._started().then(onFulfilled, onRejected) }
  /** @param {((err: any) => any) | null} [onRejected] */
  catch (onRejected) { return this._started().catch(onRejected) }
  /** @param {(() => void) | null} [onFinally] */
  finally (onFinally) { return this._started().finally(onFinally) }
}
