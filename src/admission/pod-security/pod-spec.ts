/**
 * Where each kind Pod Security admits keeps the pod it describes (upstream's
 * DefaultPodSpecExtractor), and which pod updates are worth evaluating again.
 */
import type { KubeObject } from '../../apimachinery/types'
import { asRecord, objectsOf, type Json } from '../../apimachinery/json-value'
import { isSet } from './check-helpers'

/** The pod-template kinds, `group/resource`, and the path to their template. */
const templatePaths: Record<string, readonly string[]> = {
  '/podtemplates': ['template'],
  '/replicationcontrollers': ['spec', 'template'],
  'apps/replicasets': ['spec', 'template'],
  'apps/deployments': ['spec', 'template'],
  'apps/statefulsets': ['spec', 'template'],
  'apps/daemonsets': ['spec', 'template'],
  'batch/jobs': ['spec', 'template'],
  'batch/cronjobs': ['spec', 'jobTemplate', 'spec', 'template'],
}

const key = (group: string, plural: string) => `${group}/${plural}`

export const isPodResource = (group: string, plural: string): boolean =>
  group === '' && plural === 'pods'

export const isNamespaceResource = (group: string, plural: string): boolean =>
  group === '' && plural === 'namespaces'

/** A kind that embeds a pod template: its pods are warned about, never refused. */
export const isPodTemplateResource = (group: string, plural: string): boolean =>
  key(group, plural) in templatePaths

/** The pod a pod or template describes, as metadata and spec; undefined when a template is unset. */
export function podOf(
  group: string,
  plural: string,
  object: KubeObject,
): { meta: Json; spec: Json } | undefined {
  if (isPodResource(group, plural))
    return { meta: asRecord(object.metadata), spec: asRecord(object.spec) }
  const path = templatePaths[key(group, plural)]
  if (!path) return undefined
  let template: unknown = object
  for (const step of path) template = isSet(template) ? asRecord(template)[step] : undefined
  if (!isSet(template)) return undefined
  return { meta: asRecord(asRecord(template).metadata), spec: asRecord(asRecord(template).spec) }
}

const image = (c: Json) => (typeof c.image === 'string' ? c.image : '')

/**
 * isSignificantPodUpdate: only what an update may change that a check reads is looked at again,
 * the containers' images and the ephemeral containers added or changed. An update of metadata
 * or status alone is allowed as it is.
 */
export function isSignificantPodUpdate(pod: KubeObject, old: KubeObject): boolean {
  const spec = asRecord(pod.spec)
  const oldSpec = asRecord(old.spec)
  for (const field of ['containers', 'initContainers'] as const) {
    const now = objectsOf(spec[field])
    const before = objectsOf(oldSpec[field])
    if (now.length !== before.length) return true
    if (now.some((c, i) => image(c) !== image(before[i]!))) return true
  }
  const oldEphemeral = objectsOf(oldSpec.ephemeralContainers)
  return objectsOf(spec.ephemeralContainers).some((c) => {
    const was = oldEphemeral.find((o) => o.name === c.name)
    return !was || image(was) !== image(c)
  })
}
