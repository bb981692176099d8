import type { ApiBindings } from './bindings'
import { ApiError, badRequest, failure } from '../apimachinery/status'
import { findResource } from '../apis/registry'
import { NODE_LEASE_NAMESPACE } from '../apis/coordination/node-lease'
import { patchGrantHeader, type PatchGrant } from '../apis/patch-stream'
import { storeFor } from '../store-client/stores'
import type { RuleAttributes } from '../admission/webhooks/match'
import { rulesMatch } from '../admission/webhooks/match'
import { configuredWebhooks } from '../admission/webhooks/configurations'
import { configuredPolicies } from '../admission/policies/configurations'
import { policyMayApply } from '../admission/policies/match'
import { fieldManagerOf } from './http/apply-request'
import { requestUser } from './authentication/user'

const leasesDef = findResource('coordination.k8s.io', 'v1', 'leases')!

/** A node Lease's update, as the webhooks' and the policies' rules match it. */
const leaseUpdate: RuleAttributes = {
  operation: 'UPDATE',
  group: leasesDef.group,
  version: leasesDef.version,
  resource: leasesDef.plural,
  subresource: '',
  namespaced: true,
  namespace: NODE_LEASE_NAMESPACE,
}

/** What a node's heartbeat stream may write: its own Lease's renewal, held by itself. */
export function heartbeatGrant(req: Request, node: string): PatchGrant {
  return {
    target: { def: leasesDef, namespace: NODE_LEASE_NAMESPACE, name: node },
    fields: ['spec.renewTime', 'spec.leaseDurationSeconds'],
    fixed: { spec: { holderIdentity: node } },
    opts: {
      fieldManager: fieldManagerOf(req, new URLSearchParams()),
      nodeWriter: { node },
      requester: requestUser(req),
    },
  }
}

/**
 * GET /agent/v1/nodes/{name}/heartbeat: the node's Lease renewals as a patch stream
 * (../apis/patch-stream.ts) held by the leases store, each renewal an incoming WebSocket message
 * instead of a PATCH. Only that node's own credential opens it (authorize.ts). A renewal skips the
 * admission a PATCH passes, so while any admission webhook or policy could see a Lease update the
 * stream is refused (409) and the agent renews with PATCH; configuring one closes the open streams.
 */
export async function serveHeartbeat(
  req: Request,
  env: ApiBindings,
  node: string,
): Promise<Response> {
  if (req.headers.get('Upgrade')?.toLowerCase() !== 'websocket')
    throw new ApiError(badRequest('Upgrade request required: the node heartbeat is a WebSocket'))
  if (await leaseUpdatesAdmitted(env))
    throw new ApiError(
      failure(
        409,
        'Conflict',
        'admission webhooks or policies match Lease updates: renew the Lease with PATCH',
      ),
    )
  return storeFor(env, leasesDef).fetch(
    new Request('https://store/patch-stream', {
      headers: {
        Upgrade: 'websocket',
        [patchGrantHeader]: JSON.stringify(heartbeatGrant(req, node)),
      },
    }),
  )
}

/** Whether a configured webhook or policy could be called for a node Lease's update. */
async function leaseUpdatesAdmitted(env: ApiBindings): Promise<boolean> {
  const [hooks, policies] = await Promise.all([configuredWebhooks(env), configuredPolicies(env)])
  return (
    hooks.some((h) => rulesMatch(h.hook, leaseUpdate)) ||
    policies.some((p) => policyMayApply(p, leaseUpdate))
  )
}

/**
 * Closes heartbeat streams whose grant no longer holds: the node's (its credential revoked), or
 * every node's (an admission configuration changed); their agents renew with PATCH meanwhile.
 */
export async function closeHeartbeats(
  env: ApiBindings,
  code: number,
  reason: string,
  node?: string,
): Promise<void> {
  await storeFor(env, leasesDef).closePatchStreams(code, reason, node)
}
