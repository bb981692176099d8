import type { ApiBindings } from '../bindings'
import { closeHeartbeats } from '../node-heartbeat'
import { tunnelRevokedCode } from '../../agent-protocol/tunnel-messages'
import type { KubeObject } from '../../apimachinery/types'
import {
  bootstrapNamespace,
  bootstrapTokenGroups,
  decodedData,
  bootstrapTokenPrefix,
  bootstrapUser,
  parseBootstrapToken,
} from '../../apimachinery/bootstrap-token'
import {
  nodeTokenNamespace,
  nodeTokenOwner,
  nodeTokenPrefix,
  nodeTokenType,
  parseNodeToken,
} from '../../apimachinery/node-token'
import { qualifiedResource } from '../../apimachinery/status'
import { findResource } from '../../apis/registry'
import { storeFor } from '../../store-client/stores'
import { gatewayFor } from '../../../durable-objects/node-gateway/client'
import {
  isResourceRequest,
  type Attributes,
  type ResourceAttributes,
} from '../authorization/attributes'
import { authenticated, nodeUserInfo } from './user'
import { type UserInfo } from '../../apimachinery/user-info'

const secretsDef = findResource('', 'v1', 'secrets')!
const nodesDef = findResource('', 'v1', 'nodes')!

/**
 * How long a verified node credential is taken on trust before the store is asked again: the
 * longest a revocation handled by another isolate can take to be seen here. Revocations made
 * through this isolate (deleting a Node, changing or deleting a Secret) clear it at once.
 */
export const nodeCredentialCacheMs = 10_000
const maxCached = 1000
const verified = new Map<string, { user: UserInfo; until: number }>()

/** The writes that may revoke node credentials, by group and resource. */
interface Revocation {
  /** the verbs of such a write */
  verbs: ReadonlySet<string>
  /** after a deletion by name: the node whose credential it revoked, if any */
  node(attrs: ResourceAttributes & { name: string }, res: Response): Promise<string | undefined>
}

const revocations = new Map<string, Revocation>([
  // A deleted Node (a Node's updates keep its uid).
  [
    qualifiedResource('', 'nodes'),
    { verbs: new Set(['delete', 'deletecollection']), node: async (attrs) => attrs.name },
  ],
  // A changed or deleted Secret; deleting a node's credential Secret closes that node's tunnel.
  [
    qualifiedResource('', 'secrets'),
    {
      verbs: new Set(['delete', 'deletecollection', 'update', 'patch']),
      async node(attrs, res) {
        if (attrs.namespace !== nodeTokenNamespace || !attrs.name.startsWith(nodeTokenPrefix))
          return undefined
        const deleted = (await res
          .clone()
          .json()
          .catch(() => undefined)) as KubeObject | undefined
        return deleted?.type === nodeTokenType ? decodedData(deleted)['node-name'] : undefined
      },
    },
  ],
])

/** A write that may have revoked node credentials: a deleted Node, a changed or deleted Secret. */
export function revokesNodeCredentials(attrs: Attributes): attrs is ResourceAttributes {
  return (
    isResourceRequest(attrs) &&
    !!revocations.get(qualifiedResource(attrs.group, attrs.resource))?.verbs.has(attrs.verb)
  )
}

/**
 * After a successful write that may have revoked node credentials (a Node deleted, a Secret
 * changed or deleted): forgets every cached credential, so the next request of each is checked against the
 * store, and closes the tunnel and the heartbeat stream of a node whose Node, or whose credential
 * Secret, was deleted by name.
 */
export async function afterRevocation(
  env: ApiBindings,
  attrs: ResourceAttributes,
  res: Response,
): Promise<void> {
  verified.clear()
  const name = attrs.name
  if (attrs.verb !== 'delete' || !name) return
  const node = await revocations
    .get(qualifiedResource(attrs.group, attrs.resource))
    ?.node({ ...attrs, name }, res)
  if (!node) return
  const reason = `the credential of node "${node}" was revoked`
  await gatewayFor(env, node).revoke(reason)
  await closeHeartbeats(env, tunnelRevokedCode, reason, node)
}

/** The node a node credential (`node.<id>.<secret>`) stands for now, or undefined. */
export async function authenticateNodeToken(
  env: ApiBindings,
  token: string,
): Promise<UserInfo | undefined> {
  const parsed = parseNodeToken(token)
  if (!parsed) return undefined
  const now = Date.now()
  const hit = verified.get(token)
  if (hit && hit.until > now) return hit.user
  verified.delete(token)
  const secret = await getObject(env, secretsDef, nodeTokenNamespace, nodeTokenPrefix + parsed.id)
  const owner = secret && (await nodeTokenOwner(secret, parsed))
  if (!owner) return undefined
  // The Node the credential was issued for must still be that Node: deleting it revokes the credential.
  const node = await getObject(env, nodesDef, undefined, owner.name)
  if (!node || node.metadata.uid !== owner.uid || node.metadata.deletionTimestamp) return undefined
  const user = nodeUserInfo(owner.name)
  if (verified.size >= maxCached) verified.clear()
  verified.set(token, { user, until: now + nodeCredentialCacheMs })
  return user
}

/** The `system:bootstrap:<id>` user of a valid bootstrap token (`<id>.<secret>`), or undefined. */
export async function authenticateBootstrapToken(
  env: ApiBindings,
  token: string,
): Promise<UserInfo | undefined> {
  const parsed = parseBootstrapToken(token)
  if (!parsed) return undefined
  const secret = await getObject(
    env,
    secretsDef,
    bootstrapNamespace,
    bootstrapTokenPrefix + parsed.id,
  )
  const groups = secret && (await bootstrapTokenGroups(secret, parsed))
  if (!groups) return undefined
  return { username: bootstrapUser(parsed.id), groups: [...groups, authenticated] }
}

async function getObject(
  env: ApiBindings,
  def: typeof secretsDef,
  namespace: string | undefined,
  name: string,
): Promise<KubeObject | undefined> {
  const res = await storeFor(env, def).get({ def, namespace, name })
  return res.ok ? (JSON.parse(res.value) as KubeObject) : undefined
}
