import { computeHash, POD_TEMPLATE_HASH_LABEL } from '../shared/pod-template'
import type { Deployment } from '../shared/workloads'

export { POD_TEMPLATE_HASH_LABEL }

/** The pod-template-hash of the Deployment's current template, salted with status.collisionCount once a collision was seen. */
export function podTemplateHash(d: Deployment): string {
  return computeHash(d.spec.template, d.status.collisionCount ?? undefined)
}

/** The name of the ReplicaSet for that template: `<deployment>-<hash>`. */
export function replicaSetName(d: Deployment, hash: string): string {
  return `${d.metadata.name ?? ''}-${hash}`
}
