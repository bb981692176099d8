import { randomBytes } from 'node:crypto'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

/** Returns the state dir's admin bearer token, creating a random one on first start. */
export async function ensureAdminToken(stateDir: string): Promise<{ token: string; path: string }> {
  const path = join(stateDir, 'admin-token')
  try {
    const token = (await readFile(path, 'utf8')).trim()
    if (token) return { token, path }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
  }
  const token = randomBytes(32).toString('base64url')
  await writeFile(path, token + '\n', { mode: 0o600 })
  return { token, path }
}
