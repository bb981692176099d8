import type { KubeObject } from '../apimachinery/types'
import { objectKey } from '../apimachinery/object-key'
import { servedIngresses, type EdgeSettings } from './ingress-routes'
import { catchAll, hostOwnership, type Ownership } from './host-ownership'

/** The Ingresses with `obj` written over the stored one of its name. */
export const withWritten = (list: readonly KubeObject[], obj: KubeObject): KubeObject[] => [
  ...list.filter((i) => objectKey(i) !== objectKey(obj)),
  obj,
]

function ownership(
  list: readonly KubeObject[],
  settings: EdgeSettings,
): { result: Ownership; served: Set<string> } {
  const edge = servedIngresses(list, settings.edgeIsDefault)
  const result = hostOwnership(edge, settings)
  return { result, served: new Set(edge.map(objectKey).filter((k) => !result.refused.has(k))) }
}

const claimText = (claim: string) =>
  claim === catchAll
    ? "the edge's catch-all (rules without a host, the default backend)"
    : `host "${claim}"`

/**
 * What writing `obj` over the stored Ingresses would take from another namespace: a claim it
 * holds, or the serving of one of its Ingresses. Claims are dated by their Ingress's creation, so
 * an old Ingress given a host (or the edge's class) would otherwise come first for it.
 */
export function takenByWrite(
  list: readonly KubeObject[],
  obj: KubeObject,
  settings: EdgeSettings,
): string | undefined {
  const ns = obj.metadata.namespace ?? ''
  const before = ownership(list, settings)
  const after = ownership(withWritten(list, obj), settings)
  for (const [claim, owners] of before.result.owners) {
    if (owners.some((m) => m !== ns && !after.result.owners.get(claim)?.includes(m)))
      return `this change would take ${claimText(claim)} from an Ingress of another namespace, which claimed it before this Ingress did`
  }
  for (const key of before.served) {
    if (!key.startsWith(`${ns}/`) && !after.served.has(key))
      return 'this change would stop the edge serving an Ingress of another namespace, which claimed its hosts before this Ingress did'
  }
  return undefined
}

/** Why the edge will not serve `obj` once written over the stored Ingresses; undefined when it will. */
export function refusalOfWrite(
  list: readonly KubeObject[],
  obj: KubeObject,
  settings: EdgeSettings,
): string[] | undefined {
  return hostOwnership(
    servedIngresses(withWritten(list, obj), settings.edgeIsDefault),
    settings,
  ).refused.get(objectKey(obj))
}
