/**
 * The namespaces Pod Security admission reads, kept in the isolate as an informer's lister would
 * be: each read again once it is `podSecurityNamespaceRecheckMs` old, and forgotten at once when a
 * write to it passes this isolate's admission.
 */
import type { AdmissionBindings } from '../bindings'
import { findResource } from '../../apis/registry'
import { forgetRecentObject, recentObject } from '../../store-client/recent-objects'
import { podSecurityNamespaceRecheckMs } from '../../config'

const namespacesDef = findResource('', 'v1', 'namespaces')!

/** What a namespace is read as: its labels, or null when it does not exist. */
type Labels = Record<string, string> | null

/** The namespace's labels (null when there is no such namespace), at most a second old. */
export async function namespaceLabels(env: AdmissionBindings, name: string): Promise<Labels> {
  const namespace = await recentObject(
    env,
    namespacesDef,
    undefined,
    name,
    podSecurityNamespaceRecheckMs,
  )
  return namespace ? (namespace.metadata.labels ?? {}) : null
}

/** Called after a write to the namespace: the next read goes to the store. */
export function forgetNamespace(name: string): void {
  forgetRecentObject(namespacesDef, undefined, name)
}
