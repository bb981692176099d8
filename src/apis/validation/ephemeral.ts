/**
 * Ephemeral containers as kube-apiserver v1.32 validates them (pkg/apis/core/validation): the
 * fields they may set, names unique across every container of the pod, a target that is one of
 * the pod's own containers; refused on create; added, never changed or removed, through the
 * pods/ephemeralcontainers subresource only.
 */
import type { KubeObject } from '../../apimachinery/types'
import { duplicate, forbidden, notFound, type FieldCause } from '../../apimachinery/field-errors'
import { jsonEqual, asRecord as record, type Json } from '../../apimachinery/json-value'
import type { Container } from './shapes'
import { validateContainerCommon } from './pod-spec'

const list = (v: unknown): Json[] => (Array.isArray(v) ? v.map(record) : [])

/** EphemeralContainerCommon's fields in declaration order, and whether an ephemeral container may set each. */
const fields: [string, boolean][] = [
  ['name', true],
  ['image', true],
  ['command', true],
  ['args', true],
  ['workingDir', true],
  ['ports', false],
  ['envFrom', true],
  ['env', true],
  ['resources', false],
  ['resizePolicy', false],
  ['restartPolicy', false],
  ['volumeMounts', true],
  ['volumeDevices', true],
  ['livenessProbe', false],
  ['readinessProbe', false],
  ['startupProbe', false],
  ['lifecycle', false],
  ['terminationMessagePath', true],
  ['terminationMessagePolicy', true],
  ['imagePullPolicy', true],
  ['securityContext', true],
  ['stdin', true],
  ['stdinOnce', true],
  ['tty', true],
]

/** Go's zero value test, as validateFieldAllowList applies it to a field that is set. */
function isSet(v: unknown): boolean {
  if (v === undefined || v === null || v === false || v === 0 || v === '') return false
  if (Array.isArray(v)) return v.length > 0
  if (typeof v === 'object') return Object.values(v as object).some(isSet)
  return true
}

/** spec.ephemeralContainers of a Pod (at `path`). */
export function validateEphemeralContainers(podSpec: unknown, path: string): FieldCause[] {
  const spec = record(podSpec)
  const ephemeral = list(spec.ephemeralContainers)
  if (!ephemeral.length) return []
  const others = new Set(
    [...list(spec.containers), ...list(spec.initContainers)].map((c) => String(c.name ?? '')),
  )
  const all = new Set(others)
  const causes: FieldCause[] = []
  ephemeral.forEach((c, i) => {
    const at = `${path}[${i}]`
    causes.push(...validateContainerCommon(c as Container, at))
    const name = String(c.name ?? '')
    if (all.has(name)) causes.push(duplicate(`${at}.name`, name))
    else all.add(name)
    const target = c.targetContainerName
    if (typeof target === 'string' && target !== '' && !others.has(target))
      causes.push(notFound(`${at}.targetContainerName`, target))
    for (const [field, allowed] of fields)
      if (!allowed && isSet(c[field]))
        causes.push(forbidden(`${at}.${field}`, 'cannot be set for an Ephemeral Container'))
    list(c.volumeMounts).forEach((m, j) => {
      for (const f of ['subPath', 'subPathExpr'])
        if (isSet(m[f]))
          causes.push(
            forbidden(`${at}.volumeMounts[${j}].${f}`, 'cannot be set for an Ephemeral Container'),
          )
    })
  })
  return causes
}

/** A new pod may not bring ephemeral containers: they are added to a running pod. */
export function validateEphemeralOnCreate(pod: KubeObject): FieldCause[] {
  return list(record(pod.spec).ephemeralContainers).length
    ? [forbidden('spec.ephemeralContainers', 'cannot be set on create')]
    : []
}

const byName = (pod: KubeObject) =>
  new Map(list(record(pod.spec).ephemeralContainers).map((c) => [String(c.name ?? ''), c]))

/** An update through pods/ephemeralcontainers: the ones there stay as they are; new ones may be added. */
export function validateEphemeralUpdate(old: KubeObject, next: KubeObject): FieldCause[] {
  const now = byName(next)
  const causes: FieldCause[] = []
  for (const [name, before] of byName(old)) {
    const after = now.get(name)
    if (!after)
      causes.push(
        forbidden(
          'spec.ephemeralContainers',
          `existing ephemeral containers "${name}" may not be removed\n`,
        ),
      )
    else if (!jsonEqual(before, after))
      causes.push(
        forbidden(
          `spec.ephemeralContainers[${name}]`,
          `existing ephemeral containers "${name}" may not be changed\n`,
        ),
      )
  }
  return causes
}

/** The pod as stored, with only its ephemeral containers taken from the write (the subresource's PrepareForUpdate). */
export function withEphemeralContainers(old: KubeObject, incoming: KubeObject): KubeObject {
  const spec = { ...record(old.spec) }
  const wanted = record(incoming.spec).ephemeralContainers
  if (wanted === undefined || wanted === null) delete spec.ephemeralContainers
  else spec.ephemeralContainers = wanted
  return { ...old, spec, metadata: { ...old.metadata } }
}
