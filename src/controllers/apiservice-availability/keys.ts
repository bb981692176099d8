import type { KubeObject } from '../../apimachinery/types'
import type { Cache, ResourceRef, WakesOn } from '../runtime/types'
import { apiServices, sameResource } from '../resources'
import { specOf } from '../../apis/apiregistration/apiservice'

/** The APIServices a change concerns: itself, or those backed by the changed Service or Endpoints. */
export function keysFor(resource: ResourceRef, object: KubeObject, cache: Cache): string[] {
  if (sameResource(resource, apiServices)) return [object.metadata.name ?? '']
  return cache
    .list(apiServices)
    .filter((a) => {
      const ref = specOf(a).service
      return (
        !!ref && ref.namespace === object.metadata.namespace && ref.name === object.metadata.name
      )
    })
    .map((a) => a.metadata.name ?? '')
}

export const allKeys = (cache: Cache): string[] =>
  cache.list(apiServices).map((a) => a.metadata.name ?? '')

/** The port names that have a ready address: all an availability reads of an Endpoints. */
const readyPorts = (eps: KubeObject | undefined): string => {
  const subsets = (Array.isArray(eps?.subsets) ? eps.subsets : []) as {
    addresses?: unknown[]
    ports?: { name?: string }[]
  }[]
  const names = subsets
    .filter((s) => (s.addresses?.length ?? 0) > 0)
    .flatMap((s) => (s.ports ?? []).map((p) => p.name ?? ''))
  return [...new Set(names)].sort().join(',')
}

const serviceShape = (svc: KubeObject) => {
  const spec = svc.spec as { ports?: unknown; type?: unknown } | undefined
  return JSON.stringify([spec?.type ?? null, spec?.ports ?? null])
}

/**
 * Wakes on every APIService change, and on the Service and Endpoints changes that can move an
 * availability: one appearing or going, a Service's type or ports changing, Endpoints whose ports
 * with a ready address change. The rest reach the caches at the next pass.
 */
export const wakesOn: WakesOn = (resource, type, object, previous) => {
  if (sameResource(resource, apiServices)) return true
  if (type !== 'MODIFIED' || !previous) return true
  if (resource.plural === 'services') return serviceShape(object) !== serviceShape(previous)
  return readyPorts(object) !== readyPorts(previous)
}
