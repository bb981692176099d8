import { randomBytes } from 'node:crypto'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { minAdminTokenLength } from '../config'
import { UsageError } from './settings'

/**
 * Returns the state dir's admin bearer token, creating a random one on first start. A token
 * shorter than 32 characters is refused: the Worker would not serve with it.
 */
export async function ensureAdminToken(stateDir: string): Promise<{ token: string; path: string }> {
  const path = join(stateDir, 'admin-token')
  try {
    const token = (await readFile(path, 'utf8')).trim()
    if (token.length >= minAdminTokenLength) return { token, path }
    if (token)
      throw new UsageError(
        `the admin token in ${path} is shorter than ${minAdminTokenLength} characters: put a longer one there, or remove the file to have one generated`,
      )
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
  }
  const token = randomBytes(32).toString('base64url')
  await writeFile(path, token + '\n', { mode: 0o600 })
  return { token, path }
}
