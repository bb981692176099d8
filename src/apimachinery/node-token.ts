/**
 * Node credentials: the bearer token a node agent acts with after joining, `node.<id>.<secret>`.
 * Each is kept in the store as the Secret `kube-system/node-token-<id>` of type
 * `edgeplane.io/node-token`, holding the node's name, the token id and the SHA-256 of the token
 * secret (the secret itself is never stored), owned by the Node it was issued for. The credential
 * is valid while that Secret exists and the Node it names exists with the uid it was issued for:
 * deleting either revokes it, and the admin token plays no part in it.
 */
import { decodedData } from './bootstrap-token'
import { randomTokenText, sameSecret, sha256Hex } from './secret-compare'
import type { KubeObject } from './types'

export const nodeTokenType = 'edgeplane.io/node-token'
export const nodeTokenPrefix = 'node-token-'
export const nodeTokenNamespace = 'kube-system'

const tokenPattern = /^node\.([a-z0-9]{16})\.([a-z0-9]{32})$/

/** The user name kube-apiserver gives a node's credentials. */
export function nodeUser(nodeName: string): string {
  return `system:node:${nodeName}`
}

export interface NodeToken {
  id: string
  secret: string
}

export function parseNodeToken(token: string): NodeToken | undefined {
  const m = tokenPattern.exec(token)
  return m ? { id: m[1]!, secret: m[2]! } : undefined
}

export function formatNodeToken(t: NodeToken): string {
  return `node.${t.id}.${t.secret}`
}

export function newNodeToken(): NodeToken {
  return { id: randomTokenText(16), secret: randomTokenText(32) }
}

/** The Secret recording a node credential issued for the Node `node` (its name and uid). */
export async function nodeTokenSecret(
  token: NodeToken,
  node: { name: string; uid: string },
  issuedTo: string,
): Promise<KubeObject> {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: nodeTokenPrefix + token.id,
      namespace: nodeTokenNamespace,
      annotations: { 'edgeplane.io/issued-to': issuedTo },
      ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: node.name, uid: node.uid }],
    },
    type: nodeTokenType,
    stringData: {
      'node-name': node.name,
      'token-id': token.id,
      'token-secret-sha256': await sha256Hex(token.secret),
    },
  }
}

/**
 * The node a stored credential Secret stands for when `token` matches it: not being deleted, of
 * the node-token type, same id, same secret hash. The Node's uid it was issued for comes along,
 * for the caller to check against the live Node. Otherwise undefined.
 */
export async function nodeTokenOwner(
  secret: KubeObject,
  token: NodeToken,
): Promise<{ name: string; uid: string } | undefined> {
  if (secret.metadata.deletionTimestamp || secret.type !== nodeTokenType) return undefined
  const data = decodedData(secret)
  if (!(await sameSecret(data['token-secret-sha256'] ?? '', await sha256Hex(token.secret))))
    return undefined
  const owner = secret.metadata.ownerReferences?.find(
    (r) => r.kind === 'Node' && r.apiVersion === 'v1',
  )
  const name = data['node-name']
  if (data['token-id'] !== token.id || !name || !owner?.uid || owner.name !== name) return undefined
  return { name, uid: owner.uid }
}
