// A throwaway self-signed certificate for the TLS tests, made with openssl
// when it exists (the tests that need it skip, saying so, when it does not).
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** @returns {{ key: Buffer, cert: Buffer } | null} */
export function selfSigned () {
  const dir = mkdtempSync(join(tmpdir(), 'hotpath-tls-'))
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=localhost'], { stdio: 'ignore' })
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }
  } catch {
    return null
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
