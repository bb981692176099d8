/**
 * The node's own credential: obtained once by joining (`POST /agent/v1/nodes/<name>/credential`
 * with a bootstrap token, or with an admin's token from a kubeconfig) and kept in the state dir
 * as `credentials/<node>.json`, mode 0600 in a 0700 directory. From then on the agent acts with it
 * alone; the token it joined with is neither used again nor stored.
 */
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { credentialPath, nodeCredentialSchema } from '../agent-protocol/node-credential'
import { nodeUser } from '../apimachinery/node-token'
import { ApiClient, ApiStatusError } from './api-client'
import type { ClusterAccess } from './kubeconfig'
import { RetryBackoff, WATCH_RECONNECT } from './runtime/backoff'

export class CredentialError extends Error {}

interface Stored {
  server: string
  nodeName: string
  token: string
  secret: string
}

export function credentialsDir(stateDir: string): string {
  return join(stateDir, 'credentials')
}

export function credentialFile(stateDir: string, nodeName: string): string {
  return join(credentialsDir(stateDir), `${nodeName}.json`)
}

type NodeTokenOptions = {
  access: ClusterAccess
  stateDir: string
  nodeName: string
  joinToken: string | undefined
  log: (m: string) => void
}

/**
 * The bearer token node `nodeName` acts with: the stored one while the server still accepts it,
 * else a new one obtained by joining with `joinToken`. A server that can't be reached (or answers
 * 5xx) is tried again with backoff; a refusal is a CredentialError.
 */
export async function nodeToken(opts: NodeTokenOptions): Promise<string> {
  const backoff = new RetryBackoff(WATCH_RECONNECT)
  for (;;) {
    try {
      return await obtain(opts)
    } catch (err) {
      if (err instanceof CredentialError || (err instanceof ApiStatusError && err.code < 500))
        throw err
      const delay = backoff.next()
      opts.log(
        `reaching ${opts.access.server} for node ${opts.nodeName}'s credential failed (retrying in ${delay} ms): ${(err as Error).message}`,
      )
      await new Promise((r) => setTimeout(r, delay))
    }
  }
}

async function obtain(opts: NodeTokenOptions): Promise<string> {
  const { access, stateDir, nodeName, joinToken } = opts
  const file = credentialFile(stateDir, nodeName)
  const stored = await readStored(file)
  if (stored && stored.server === access.server && stored.nodeName === nodeName) {
    const who = await whoAmI(access, stored.token)
    if (who === nodeUser(nodeName)) return stored.token
    if (!joinToken)
      throw new CredentialError(
        `the credential of node ${nodeName} in ${file} (${stored.secret}) is no longer accepted; join again with --token <join token>`,
      )
    opts.log(`the stored credential of node ${nodeName} is no longer accepted: joining again`)
  }
  if (!joinToken)
    throw new CredentialError(
      `node ${nodeName} has no credential in ${credentialsDir(stateDir)}: join with --token <join token> (see docs/security.md)`,
    )
  // A kubeconfig may already hold this node's own credential: then it is used as it is.
  if (joinToken.startsWith('node.') && (await whoAmI(access, joinToken)) === nodeUser(nodeName))
    return joinToken
  const client = new ApiClient({ ...access, token: joinToken }, { maxSockets: 1 })
  let answer: unknown
  try {
    answer = await client.request('POST', credentialPath(nodeName))
  } catch (err) {
    if (err instanceof ApiStatusError && err.code < 500)
      throw new CredentialError(
        `joining as node ${nodeName} was refused (${err.code} ${err.reason}): ${err.message}`,
      )
    throw err
  } finally {
    client.close()
  }
  const credential = nodeCredentialSchema.parse(answer)
  await store(file, {
    server: access.server,
    nodeName,
    token: credential.token,
    secret: credential.secret,
  })
  opts.log(`joined as node ${nodeName}; its credential is ${credential.secret}, kept in ${file}`)
  return credential.token
}

/** The user a token authenticates as (SelfSubjectReview), or undefined when it is refused. */
async function whoAmI(access: ClusterAccess, token: string): Promise<string | undefined> {
  const client = new ApiClient({ ...access, token }, { maxSockets: 1 })
  try {
    const review = await client.create<{ status?: { userInfo?: { username?: string } } }>(
      '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'SelfSubjectReview',
      },
    )
    return review.status?.userInfo?.username
  } catch (err) {
    if (err instanceof ApiStatusError && err.code === 401) return undefined
    throw err
  } finally {
    client.close()
  }
}

async function readStored(file: string): Promise<Stored | undefined> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<Stored>
    if (
      typeof parsed.server !== 'string' ||
      typeof parsed.nodeName !== 'string' ||
      typeof parsed.token !== 'string'
    )
      return undefined
    return {
      server: parsed.server,
      nodeName: parsed.nodeName,
      token: parsed.token,
      secret: String(parsed.secret ?? ''),
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || err instanceof SyntaxError)
      return undefined
    throw err
  }
}

async function store(file: string, value: Stored): Promise<void> {
  const dir = join(file, '..')
  await mkdir(dir, { recursive: true, mode: 0o700 })
  await chmod(dir, 0o700)
  const tmp = `${file}.tmp`
  await writeFile(tmp, JSON.stringify(value) + '\n', { mode: 0o600 })
  await rename(tmp, file)
}

/**
 * Creates the agent's state dir and its credentials dir. The credentials dir is owner-only (0700,
 * tightened if it exists); a new state dir may be passed through (0711, not listed) so that pods
 * running as another user reach their own directories under `pods/`.
 */
export async function prepareStateDir(stateDir: string): Promise<void> {
  if ((await mkdir(stateDir, { recursive: true, mode: 0o711 })) !== undefined)
    await chmod(stateDir, 0o711)
  await mkdir(credentialsDir(stateDir), { recursive: true, mode: 0o700 })
  await chmod(credentialsDir(stateDir), 0o700)
}
