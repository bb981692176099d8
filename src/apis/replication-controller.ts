import type { KubeObject } from '../apimachinery/types'
import { asRecord, type Json } from '../apimachinery/json-value'

/**
 * SetDefaults_ReplicationController: an empty selector, and empty object labels, take the pod
 * template's labels; replicas defaults to 1.
 */
export function defaultReplicationController(rc: KubeObject): void {
  if (!rc.spec) return
  const spec = asRecord(rc.spec)
  const templateLabels = asRecord(asRecord(asRecord(spec.template).metadata).labels) as Record<
    string,
    string
  >
  if (Object.keys(templateLabels).length) {
    if (!Object.keys(asRecord(spec.selector)).length) spec.selector = { ...templateLabels }
    if (!Object.keys(rc.metadata.labels ?? {}).length) rc.metadata.labels = { ...templateLabels }
  }
  if (spec.replicas === undefined || spec.replicas === null) spec.replicas = 1
}
