/**
 * The namespaces Pod Security admission reads, kept in the isolate as an informer's lister would
 * be: each read again once it is `podSecurityNamespaceRecheckMs` old, and forgotten at once when a
 * write to it passes this isolate's admission.
 */
import type { Env } from '../../env'
import type { KubeObject } from '../../apimachinery/types'
import { findResource } from '../../apis/registry'
import { storeFor } from '../../store-client/stores'
import { podSecurityNamespaceRecheckMs } from '../../config'

const namespacesDef = findResource('', 'v1', 'namespaces')!

/** What a namespace is read as: its labels, or null when it does not exist. */
type Labels = Record<string, string> | null

const read = new Map<string, { at: number; labels: Promise<Labels> }>()

/** The namespace's labels (null when there is no such namespace), at most a second old. */
export function namespaceLabels(env: Env, name: string): Promise<Labels> {
  const now = Date.now()
  const hit = read.get(name)
  if (hit && now - hit.at < podSecurityNamespaceRecheckMs) return hit.labels
  if (read.size > 1000) read.clear()
  const labels = storeFor(env, namespacesDef)
    .get({ def: namespacesDef, name })
    .then((got) => (got.ok ? ((JSON.parse(got.value) as KubeObject).metadata.labels ?? {}) : null))
  read.set(name, { at: now, labels })
  labels.catch(() => read.get(name)?.labels === labels && read.delete(name))
  return labels
}

/** Called after a write to the namespace: the next read goes to the store. */
export function forgetNamespace(name: string): void {
  read.delete(name)
}
