import { unwrap } from '../../apimachinery/status'
import type { ApiBindings } from '../bindings'
import type { KubeObject } from '../../apimachinery/types'
import { formatNodeToken, newNodeToken, nodeTokenSecret } from '../../apimachinery/node-token'
import { findResource } from '../../apis/registry'
import { storeFor } from '../../store-client/stores'
import type { NodeCredential } from '../../agent-protocol/node-credential'
import { ensureBootstrap } from '../bootstrap/ensure-bootstrap'
import { jsonBody } from '../http/respond'
import { requestUser } from './user'

const nodesDef = findResource('', 'v1', 'nodes')!
const secretsDef = findResource('', 'v1', 'secrets')!

/**
 * POST /agent/v1/nodes/<name>/credential: issues the node its own credential. The Node is created
 * (bare: the agent fills it in) unless it exists, and the credential is recorded as a Secret owned
 * by it, so deleting the Node or the Secret revokes the credential. Who may call it is the
 * authorizer's: a bootstrap token's user or an admin, never a node.
 */
export async function serveNodeJoin(
  req: Request,
  env: ApiBindings,
  name: string,
): Promise<Response> {
  await ensureBootstrap(env)
  const nodes = storeFor(env, nodesDef)
  const existing = await nodes.get({ def: nodesDef, name })
  const node = existing.ok
    ? (JSON.parse(existing.value) as KubeObject)
    : (JSON.parse(
        unwrap(
          await nodes.create(
            { def: nodesDef, name },
            { apiVersion: 'v1', kind: 'Node', metadata: { name } },
            {},
          ),
        ).object,
      ) as KubeObject)
  const token = newNodeToken()
  const secret = await nodeTokenSecret(
    token,
    { name, uid: node.metadata.uid ?? '' },
    requestUser(req).username,
  )
  const created = unwrap(
    await storeFor(env, secretsDef).create(
      { def: secretsDef, namespace: secret.metadata.namespace, name: secret.metadata.name! },
      secret,
      {},
    ),
  )
  const stored = JSON.parse(created.object) as KubeObject
  const out: NodeCredential = {
    kind: 'NodeCredential',
    apiVersion: 'agent.edgeplane.io/v1',
    nodeName: name,
    token: formatNodeToken(token),
    secret: `${stored.metadata.namespace}/${stored.metadata.name}`,
  }
  return jsonBody(out, 201)
}
