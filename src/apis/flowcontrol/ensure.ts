/**
 * How kube-apiserver keeps its APF bootstrap objects (pkg/registry/flowcontrol/ensurer), as pure
 * decisions: a missing one is created; a mandatory one always gets its spec back; a suggested one
 * gets it back only while its `apf.kubernetes.io/autoupdate-spec` annotation says `true`, or, with
 * no such annotation, while nobody has changed it (generation 1); the annotation is then set to
 * what was decided. An object that carries `autoupdate-spec: true` but is not (or no longer) a
 * bootstrap object is deleted.
 */
import type { KubeObject } from '../../apimachinery/types'
import { asRecord } from '../../apimachinery/json-value'
import { autoUpdateAnnotation, autoUpdateOf, exemptName, priorityLevelKind } from './names'
import { bootstrapObject, defaulted } from './bootstrap'
import { specEqual } from './semantic'

export type EnsurePlan =
  | { type: 'create'; object: KubeObject }
  | { type: 'update'; object: KubeObject }
  | { type: 'delete' }
  | undefined

/** Whether the stored spec is what the bootstrap object's defaulted spec says (the exempt level's `exempt` block aside). */
function specCurrent(kind: string, want: KubeObject, have: KubeObject): boolean {
  const wanted = asRecord(defaulted(want).spec)
  const spec = asRecord(have.spec)
  if (kind === priorityLevelKind && want.metadata.name === exemptName) {
    if (spec.exempt === undefined || spec.exempt === null) return false
    return specEqual({ ...wanted, exempt: spec.exempt }, spec)
  }
  return specEqual(wanted, spec)
}

/** What to do about the object of this kind and name, given what is stored (undefined: nothing). */
export function ensurePlan(
  kind: string,
  name: string,
  current: KubeObject | undefined,
): EnsurePlan {
  const boot = bootstrapObject(kind, name)
  if (!boot)
    return current && autoUpdateOf(current) === true && !current.metadata.deletionTimestamp
      ? { type: 'delete' }
      : undefined
  if (!current) return { type: 'create', object: structuredClone(boot.object) }
  if (current.metadata.deletionTimestamp) return undefined
  const annotated = autoUpdateOf(current)
  const autoUpdate = boot.mandatory || (annotated ?? current.metadata.generation === 1)
  const annotate = annotated !== autoUpdate
  const replaceSpec = autoUpdate && !specCurrent(kind, boot.object, current)
  if (!annotate && !replaceSpec) return undefined
  const next = structuredClone(current)
  if (annotate)
    next.metadata.annotations = {
      ...next.metadata.annotations,
      [autoUpdateAnnotation]: String(autoUpdate),
    }
  if (replaceSpec) next.spec = structuredClone(boot.object.spec)
  return { type: 'update', object: next }
}
