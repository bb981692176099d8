import { z } from 'zod'

/**
 * Joining: `POST /agent/v1/nodes/<name>/credential`, authenticated with a bootstrap token (or an
 * admin's credentials), answers 201 with the node's own credential. The agent keeps it and acts
 * with it alone from then on.
 */
export function credentialPath(nodeName: string): string {
  return `/agent/v1/nodes/${encodeURIComponent(nodeName)}/credential`
}

/**
 * The node an agent path (`/agent/v1/nodes/<name>/<endpoint>`, already decoded by the server's one
 * reading of the request) names, or undefined when the path is not that endpoint's.
 */
export function agentPathNode(
  path: string,
  endpoint: 'credential' | 'tunnel' | 'heartbeat',
): string | undefined {
  const prefix = '/agent/v1/nodes/'
  const suffix = `/${endpoint}`
  if (!path.startsWith(prefix) || !path.endsWith(suffix)) return undefined
  const name = path.slice(prefix.length, path.length - suffix.length)
  return name && !name.includes('/') ? name : undefined
}

/** The node a join path names, or undefined when the path is not a join. */
export const credentialPathNode = (path: string): string | undefined =>
  agentPathNode(path, 'credential')

export const nodeCredentialSchema = z.object({
  kind: z.literal('NodeCredential'),
  apiVersion: z.literal('agent.edgeplane.io/v1'),
  nodeName: z.string().min(1),
  /** the bearer token, `node.<id>.<secret>` */
  token: z.string().min(1),
  /** where it is recorded: `kube-system/node-token-<id>` */
  secret: z.string().min(1),
})

export type NodeCredential = z.infer<typeof nodeCredentialSchema>
