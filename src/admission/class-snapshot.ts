/**
 * The PriorityClasses and RuntimeClasses that pod admission reads, kept in the isolate as an
 * informer's lister would be: listed at most once per `classRecheckMs`, dropped at once by a
 * write to the kind through this isolate. A name missing from the snapshot is read from the
 * store before a pod naming it is refused, so a class created a moment ago is never unknown.
 */
import type { AdmissionBindings } from './bindings'
import type { KubeObject } from '../apimachinery/types'
import { findResource } from '../apis/registry'
import type { ResourceDef } from '../apis/resource-def'
import { storeFor } from '../store-client/stores'
import { listPages } from '../store-client/list-pages'

export const classRecheckMs = 1000

interface Snapshot {
  at: number
  items: KubeObject[]
}

const snapshots = new Map<string, Snapshot>()

export const priorityClassesDef = (): ResourceDef =>
  findResource('scheduling.k8s.io', 'v1', 'priorityclasses')!
export const runtimeClassesDef = (): ResourceDef =>
  findResource('node.k8s.io', 'v1', 'runtimeclasses')!

/** Every object of the cluster-scoped kind, at most classRecheckMs old. */
export async function classSnapshot(
  env: AdmissionBindings,
  def: ResourceDef,
): Promise<KubeObject[]> {
  const now = Date.now()
  const hit = snapshots.get(def.plural)
  if (hit && now - hit.at < classRecheckMs) return hit.items
  const items: KubeObject[] = []
  for await (const page of listPages(env, def, {}))
    for (const text of page.items) items.push(JSON.parse(text) as KubeObject)
  snapshots.set(def.plural, { at: now, items })
  return items
}

/** The named object: from the snapshot, else read from the store; undefined when it does not exist. */
export async function classNamed(
  env: AdmissionBindings,
  def: ResourceDef,
  name: string,
  snapshot: readonly KubeObject[],
): Promise<KubeObject | undefined> {
  const cached = snapshot.find((o) => o.metadata.name === name)
  if (cached) return cached
  const res = await storeFor(env, def).get({ def, name })
  return res.ok ? (JSON.parse(res.value) as KubeObject) : undefined
}

/** Called after a write to the kind: the next admission lists it afresh. */
export function forgetClasses(def: Pick<ResourceDef, 'plural'>): void {
  snapshots.delete(def.plural)
}
