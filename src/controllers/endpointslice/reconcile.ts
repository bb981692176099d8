import type { KubeObject } from '../../apimachinery/types'
import { isHeadless, isManagedService, podsOfService } from '../endpoints/service-pods'
import type { Action, Cache, Outcome } from '../runtime/types'
import { isControlledBy, newControllerRef } from '../../apimachinery/owner-refs'
import { desiredSlices, type SliceContent } from './desired'
import { isManagedSlice } from './keys'
import { controllerName, managedByLabel, serviceNameLabel } from './resources'
import { jsonEqual, stableStringify } from '../../apimachinery/json-value'
import { splitKey } from '../../apimachinery/object-key'
import { endpointSlices, services } from '../resources'

const headlessLabel = 'service.kubernetes.io/headless'

/** setEndpointSliceLabels: the service's labels (but the reserved ones), its name, the manager, and the headless marker. */
export function sliceLabels(svc: KubeObject): Record<string, string> {
  const labels: Record<string, string> = {}
  for (const [k, v] of Object.entries(svc.metadata.labels ?? {}))
    if (k !== serviceNameLabel && k !== managedByLabel && k !== headlessLabel) labels[k] = v
  if (isHeadless(svc)) labels[headlessLabel] = ''
  labels[serviceNameLabel] = svc.metadata.name ?? ''
  labels[managedByLabel] = controllerName
  return labels
}

/** A slice's name prefix: the service name, shortened so the generated name stays a valid name. */
function generateName(svc: KubeObject): string {
  const name = svc.metadata.name ?? ''
  return `${name.length > 57 ? name.slice(0, 57) : name}-`
}

function newSlice(svc: KubeObject, content: SliceContent): KubeObject {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      generateName: generateName(svc),
      namespace: svc.metadata.namespace,
      labels: sliceLabels(svc),
      ownerReferences: [newControllerRef(svc, 'v1', 'Service')],
    },
    addressType: 'IPv4',
    endpoints: content.endpoints,
    ports: content.ports,
  }
}

function upToDate(slice: KubeObject, svc: KubeObject, content: SliceContent): boolean {
  return (
    slice.addressType === 'IPv4' &&
    jsonEqual(slice.endpoints ?? [], content.endpoints) &&
    jsonEqual(slice.ports ?? [], content.ports) &&
    jsonEqual(slice.metadata.labels ?? {}, sliceLabels(svc)) &&
    isControlledBy(slice, svc)
  )
}

/**
 * syncService of the EndpointSlice controller, simplified: the service's managed slices are matched
 * to the desired contents by port set (an existing slice is reused, and rewritten only when its
 * content differs), the rest of the contents are created and leftover slices deleted. A service
 * that is gone needs nothing here: its slices are owned by it and go with it.
 */
export function reconcileEndpointSlices(key: string, cache: Cache): Outcome {
  const { namespace, name } = splitKey(key)
  const svc = cache.get(services, namespace, name)
  if (!svc || !isManagedService(svc) || svc.metadata.deletionTimestamp) return { actions: [] }

  const existing = cache
    .list(endpointSlices, namespace)
    .filter(
      (s) =>
        isManagedSlice(s) &&
        s.metadata.labels?.[serviceNameLabel] === name &&
        !s.metadata.deletionTimestamp,
    )
    .sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1))
  const unused = new Set(existing)
  const actions: Action[] = []
  const creates: Action[] = []
  for (const content of desiredSlices(svc, podsOfService(svc, cache))) {
    const portKey = stableStringify(content.ports)
    const candidates = [...unused].filter(
      (s) => s.addressType === 'IPv4' && stableStringify(s.ports ?? []) === portKey,
    )
    const slice = candidates.find((s) => upToDate(s, svc, content)) ?? candidates[0]
    if (!slice) {
      creates.push({ type: 'create', resource: endpointSlices, object: newSlice(svc, content) })
      continue
    }
    unused.delete(slice)
    if (upToDate(slice, svc, content)) continue
    const fresh = newSlice(svc, content)
    const metadata = {
      ...slice.metadata,
      labels: fresh.metadata.labels,
      ownerReferences: fresh.metadata.ownerReferences,
    }
    actions.push({
      type: 'update',
      resource: endpointSlices,
      object: {
        ...slice,
        metadata,
        addressType: 'IPv4',
        endpoints: content.endpoints,
        ports: content.ports,
      },
    })
  }
  // Updates first, then creates, then deletes: consumers never see a moment with fewer endpoints than either state.
  actions.push(...creates)
  for (const s of unused) {
    actions.push({
      type: 'delete',
      resource: endpointSlices,
      namespace,
      name: s.metadata.name ?? '',
      preconditions: { uid: s.metadata.uid },
    })
  }
  return { actions }
}
