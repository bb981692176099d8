/**
 * The classes every cluster starts with, created when missing (as kube-apiserver creates the
 * system PriorityClasses, and an addon manager's EnsureExists the rest): `system-node-critical`
 * and `system-cluster-critical`, and one RuntimeClass per node runtime (`process`, `docker`,
 * `sim`) whose scheduling.nodeSelector sends a pod that names it to nodes of that runtime.
 */
import type { ApiBindings } from '../bindings'
import type { KubeObject } from '../../apimachinery/types'
import type { ResourceDef } from '../../apis/resource-def'
import { storeFor } from '../../store-client/stores'
import { systemPriorityClasses } from '../../apis/priority-class'
import { priorityClassesDef, runtimeClassesDef } from '../../admission/class-snapshot'
import { RUNTIME_LABEL } from '../../agent-protocol/runtime-label'

export const nodeRuntimes = ['process', 'docker', 'sim'] as const

/** The RuntimeClass named for a node runtime: its handler is the runtime, its nodes those labelled with it. */
export function runtimeClassFor(runtime: string): KubeObject {
  return {
    apiVersion: 'node.k8s.io/v1',
    kind: 'RuntimeClass',
    metadata: { name: runtime },
    handler: runtime,
    scheduling: { nodeSelector: { [RUNTIME_LABEL]: runtime } },
  }
}

async function ensureExists(env: ApiBindings, def: ResourceDef, obj: KubeObject): Promise<void> {
  const store = storeFor(env, def)
  const name = obj.metadata.name!
  if ((await store.get({ def, name })).ok) return
  await store.create({ def, name }, structuredClone(obj), {})
}

export async function ensureClasses(env: ApiBindings): Promise<void> {
  for (const pc of systemPriorityClasses) await ensureExists(env, priorityClassesDef(), pc)
  for (const runtime of nodeRuntimes)
    await ensureExists(env, runtimeClassesDef(), runtimeClassFor(runtime))
}
