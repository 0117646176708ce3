// nginx in front of two instances, as a deployment runs it: its own config
// in a temporary folder (pid file, logs and temp paths inside it), run in
// the foreground as a child process of the soak.
import { accessSync, constants, chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { removeAtExit, spawnChild, waitExit } from './children.js'
import { get } from './probe.js'
import { sleep } from './wait.js'

export const INSTALL_HINT = 'nginx was not found (looked in $NGINX, $PATH, /usr/sbin, /usr/local/sbin, /usr/local/nginx/sbin). Install it: apt-get install nginx (Debian/Ubuntu), brew install nginx (macOS), or set NGINX=/path/to/nginx.'

/** @returns {string | null} the nginx binary, or null */
export function findNginx () {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin', '/usr/local/nginx/sbin']
  const candidates = [process.env.NGINX, ...dirs.filter(Boolean).map((d) => join(d, 'nginx'))]
  for (const file of candidates) {
    if (!file) continue
    try {
      accessSync(file, constants.X_OK)
      return file
    } catch {}
  }
  return null
}

/**
 * The config. What makes restarts safe:
 * - `keepalive 32` with `proxy_http_version 1.1` and an empty Connection
 *   header: upstream connections are reused (without them nginx opens one
 *   per request and closes it).
 * - `keepalive_timeout 4s`, below the app's keepAliveTimeout (5 s): nginx,
 *   not the app, closes an idle upstream connection, so nginx never sends a
 *   request on a connection the app is closing at that moment.
 * - `proxy_next_upstream error timeout` (nginx's default, not set here): a
 *   request that could not be sent (connection refused while an instance
 *   restarts) goes to the other instance; a POST already sent is not sent
 *   twice, since non_idempotent is not in the list. A GET whose connection
 *   was reset is sent again to the other instance and counts 2xx: the
 *   resets are in the error log (the report's nginxErrors), not hidden.
 * - `max_fails=1 fail_timeout=2s`: an instance that refused a connection
 *   is left alone for 2 s.
 * Only failures are logged (with the upstream that answered), so the access
 * log stays small under load.
 * @param {{ dir: string, port: number, upstreams: number[] }} o
 */
export function nginxConfig (o) {
  const servers = o.upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`).join('\n')
  return `daemon off;
master_process on;
worker_processes 1;
pid ${o.dir}/nginx.pid;
error_log ${o.dir}/error.log warn;

events {
  worker_connections 1024;
}

http {
  client_body_temp_path ${o.dir}/client_body;
  proxy_temp_path ${o.dir}/proxy;
  fastcgi_temp_path ${o.dir}/fastcgi;
  uwsgi_temp_path ${o.dir}/uwsgi;
  scgi_temp_path ${o.dir}/scgi;

  map $status $failed {
    ~^2 0;
    default 1;
  }
  log_format upstream '$msec $request_method $request_uri $status upstream=$upstream_addr upstream_status=$upstream_status';
  access_log ${o.dir}/access.log upstream if=$failed;

  upstream app {
${servers}
    keepalive 32;
    keepalive_timeout 4s;
  }

  server {
    listen 127.0.0.1:${o.port};

    location / {
      proxy_pass http://app;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
    }
  }
}
`
}

/**
 * Writes the config, starts nginx and waits until it answers on `port`
 * (any status: the instances may not be up yet).
 * @param {{ bin: string, port: number, upstreams: number[] }} o
 */
export async function startNginx (o) {
  const dir = mkdtempSync(join(tmpdir(), 'hotpath-restart-nginx-'))
  const folder = removeAtExit(dir)
  // Run as root, nginx's worker runs as `nobody`, which must reach the temp paths.
  chmodSync(dir, 0o755)
  const conf = join(dir, 'nginx.conf')
  writeFileSync(conf, nginxConfig({ dir, port: o.port, upstreams: o.upstreams }))
  const child = spawnChild(o.bin, ['-p', dir, '-c', conf, '-e', join(dir, 'error.log')], { stdio: ['ignore', 'ignore', 'pipe'], exitSignal: 'SIGTERM' })
  let stderr = ''
  child.stderr?.on('data', (d) => { stderr = (stderr + d).slice(-4000) })
  let exited = false
  child.once('exit', () => { exited = true })
  const end = Date.now() + 10_000
  while (await get(o.port, '/health') === 0) {
    if (exited || Date.now() > end) {
      child.kill('SIGTERM')
      throw new Error(`nginx did not start: ${stderr.trim() || readLog(join(dir, 'error.log'))}`)
    }
    await sleep(50)
  }
  return {
    dir,
    /** the failures nginx logged, and its error log */
    logs () {
      return { access: readLog(join(dir, 'access.log')), error: readLog(join(dir, 'error.log')) }
    },
    /** fast shutdown (SIGTERM), then the folder is removed */
    async stop () {
      child.kill('SIGTERM')
      await waitExit(child, 10_000)
      rmSync(dir, { recursive: true, force: true })
      folder.forget()
    }
  }
}

/** @param {string} file */
function readLog (file) {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return ''
  }
}
