/**
 * ValidateJobSpecUpdate (pkg/apis/batch/validation, kube-apiserver v1.32): what an update may
 * change of a Job's spec. The selector, pod template, completion mode, pod failure and success
 * policies, backoffLimitPerIndex and managedBy are fixed; completions too, except for an Indexed
 * Job, whose completions may change together with parallelism (ElasticIndexedJob). A Job that is
 * suspended and has never started may still have its template's scheduling directives changed:
 * node affinity, node selector, tolerations, scheduling gates, labels and annotations.
 */
import type { KubeObject } from '../../apimachinery/types'
import { invalid, type FieldCause } from '../../apimachinery/field-errors'
import { asRecord, type Json } from '../../apimachinery/json-value'
import { semanticEqual } from './semantic'
import { immutableField, immutableSelector } from './validate-immutable'

/** validateCompletions: an Indexed Job may change completions only to its parallelism. */
function completionsUpdate(spec: Json, old: Json): FieldCause[] {
  if (spec.completionMode !== 'Indexed')
    return immutableField('spec.completions', spec.completions, old.completions)
  if (semanticEqual(spec.completions, old.completions) || typeof spec.completions !== 'number')
    return []
  if (spec.completions !== spec.parallelism)
    return [
      invalid(
        'spec.completions',
        spec.completions,
        'can only be modified in tandem with spec.parallelism',
      ),
    ]
  return []
}

/** The stored template with the scheduling directives of the new one, for a suspended Job that never ran. */
function withNewDirectives(template: Json, old: Json): Json {
  const before = asRecord(old.spec)
  const after = asRecord(template.spec)
  const affinity =
    after.affinity === undefined
      ? { ...asRecord(before.affinity), nodeAffinity: undefined }
      : { ...asRecord(before.affinity), nodeAffinity: asRecord(after.affinity).nodeAffinity }
  const meta = {
    ...asRecord(old.metadata),
    labels: asRecord(template.metadata).labels,
    annotations: asRecord(template.metadata).annotations,
  }
  const spec = {
    ...before,
    affinity,
    nodeSelector: after.nodeSelector,
    tolerations: after.tolerations,
    schedulingGates: after.schedulingGates,
  }
  return { ...old, metadata: meta, spec }
}

/** Suspended (spec.suspend) and never started (no status.startTime). */
function mayRescheduleTemplate(old: KubeObject): boolean {
  return asRecord(old.spec).suspend === true && asRecord(old.status).startTime === undefined
}

/** The update causes of a Job, in upstream's order. */
export function validateJobUpdate(old: KubeObject, next: KubeObject): FieldCause[] {
  const spec = asRecord(next.spec)
  const before = asRecord(old.spec)
  const template = asRecord(spec.template)
  const oldTemplate = mayRescheduleTemplate(old)
    ? withNewDirectives(template, asRecord(before.template))
    : before.template
  return [
    ...completionsUpdate(spec, before),
    ...immutableSelector('spec.selector', spec.selector, before.selector),
    ...immutableField('spec.template', spec.template, oldTemplate),
    ...immutableField('spec.completionMode', spec.completionMode, before.completionMode),
    ...immutableField('spec.podFailurePolicy', spec.podFailurePolicy, before.podFailurePolicy),
    ...immutableField(
      'spec.backoffLimitPerIndex',
      spec.backoffLimitPerIndex,
      before.backoffLimitPerIndex,
    ),
    ...immutableField('spec.managedBy', spec.managedBy, before.managedBy),
    ...immutableField('spec.successPolicy', spec.successPolicy, before.successPolicy),
  ]
}
