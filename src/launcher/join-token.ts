import { readFile } from 'node:fs/promises'
import {
  bootstrapNamespace,
  bootstrapTokenGroups,
  bootstrapTokenSecret,
  bootstrapTokenType,
  newBootstrapToken,
} from '../apimachinery/bootstrap-token'
import type { KubeObject } from '../apimachinery/types'
import { ApiClient, type KubeList } from '../agent/api-client'
import { credentialFile } from '../agent/credentials'

/** How long the join token the launcher prints stays valid: kubeadm's default token TTL. */
export const joinTokenTtlSeconds = 24 * 60 * 60

const secretsPath = `/api/v1/namespaces/${bootstrapNamespace}/secrets`

/**
 * Creates a bootstrap token (`<id>.<secret>`) for joining nodes, as `kubeadm token create` does,
 * after deleting the expired ones (as upstream's token cleaner does), so restarts don't pile them up.
 */
export async function createJoinToken(opts: {
  server: string
  ca: string
  adminToken: string
}): Promise<string> {
  const api = new ApiClient(
    { server: opts.server, ca: opts.ca, token: opts.adminToken },
    { maxSockets: 2, userAgent: 'edgeplane-launcher' },
  )
  try {
    const list = await api.get<KubeList>(
      `${secretsPath}?fieldSelector=${encodeURIComponent(`type=${bootstrapTokenType}`)}`,
    )
    for (const s of list.items) {
      const id = String((s.data as Record<string, string> | undefined)?.['token-id'] ?? '')
      if (id && !(await stillValid(s, id)))
        await api.delete(`${secretsPath}/${s.metadata.name}`).catch(() => undefined)
    }
    const token = newBootstrapToken()
    await api.create(
      secretsPath,
      bootstrapTokenSecret(token, {
        ttlSeconds: joinTokenTtlSeconds,
        description: 'created by the edgeplane launcher',
      }),
    )
    return `${token.id}.${token.secret}`
  } finally {
    api.close()
  }
}

async function stillValid(secret: KubeObject, encodedId: string): Promise<boolean> {
  const id = Buffer.from(encodedId, 'base64').toString('utf8')
  const secretText = Buffer.from(
    String((secret.data as Record<string, string>)['token-secret'] ?? ''),
    'base64',
  ).toString('utf8')
  return (await bootstrapTokenGroups(secret, { id, secret: secretText })) !== undefined
}

/** Whether the agent's state dir already holds a credential of `node` for this server. */
export async function hasNodeCredential(
  stateDir: string,
  node: string,
  server: string,
): Promise<boolean> {
  try {
    const stored = JSON.parse(await readFile(credentialFile(stateDir, node), 'utf8')) as {
      server?: string
    }
    return stored.server === server
  } catch {
    return false
  }
}
