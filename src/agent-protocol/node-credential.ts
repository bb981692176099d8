import { z } from 'zod'

/**
 * Joining: `POST /agent/v1/nodes/<name>/credential`, authenticated with a bootstrap token (or an
 * admin's credentials), answers 201 with the node's own credential. The agent keeps it and acts
 * with it alone from then on.
 */
export function credentialPath(nodeName: string): string {
  return `/agent/v1/nodes/${encodeURIComponent(nodeName)}/credential`
}

/** The node a join path names, or undefined when the path is not a join. */
export function credentialPathNode(path: string): string | undefined {
  const m = /^\/agent\/v1\/nodes\/([^/]+)\/credential$/.exec(path)
  if (!m) return undefined
  try {
    return decodeURIComponent(m[1]!)
  } catch {
    return undefined
  }
}

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
