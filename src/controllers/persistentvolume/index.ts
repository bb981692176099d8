import type { KubeObject } from '../../apimachinery/types'
import { nodes, persistentVolumeClaims, sameResource } from '../resources'
import type { Cache, ControllerDefinition, ResourceRef } from '../runtime/types'
import { claimClass } from './match'
import { claimKey, reconcileStorage, volumeKey } from './reconcile'
import { SELECTED_NODE_ANNOTATION } from '../../apis/storage/annotations'
import { persistentVolumes, storageClasses } from '../resources'
import { asRecord as rec, type Json } from '../../apimachinery/json-value'

const unboundClaims = (cache: Cache) =>
  cache.list(persistentVolumeClaims).filter((c) => !rec(c.spec).volumeName)
const keyOfClaim = (c: KubeObject) => claimKey(c.metadata.namespace ?? '', c.metadata.name ?? '')

function keysFor(resource: ResourceRef, object: KubeObject, cache: Cache): string[] {
  if (sameResource(resource, persistentVolumeClaims)) {
    const keys = [keyOfClaim(object)]
    const volumeName = rec(object.spec).volumeName
    if (typeof volumeName === 'string' && volumeName) keys.push(volumeKey(volumeName))
    for (const pv of cache.list(persistentVolumes)) {
      const ref = rec(rec(pv.spec).claimRef)
      if (ref.name === object.metadata.name && ref.namespace === object.metadata.namespace)
        keys.push(volumeKey(pv.metadata.name ?? ''))
    }
    return keys
  }
  if (sameResource(resource, persistentVolumes)) {
    const keys = [volumeKey(object.metadata.name ?? '')]
    const ref = rec(rec(object.spec).claimRef)
    if (ref.name !== undefined) keys.push(claimKey(String(ref.namespace ?? ''), String(ref.name)))
    // A volume that is (or became) free may be what a waiting claim needs.
    else keys.push(...unboundClaims(cache).map(keyOfClaim))
    return keys
  }
  if (sameResource(resource, storageClasses))
    return unboundClaims(cache)
      .filter((c) => claimClass(c) === object.metadata.name)
      .map(keyOfClaim)
  if (sameResource(resource, nodes))
    return unboundClaims(cache)
      .filter((c) => c.metadata.annotations?.[SELECTED_NODE_ANNOTATION] === object.metadata.name)
      .map(keyOfClaim)
  return []
}

/**
 * The persistent volume controller: binds claims to matching volumes (phases, claimRef,
 * volumeName), reclaims released volumes by their policy, and provisions local-path volumes on the
 * node the scheduler chose for a WaitForFirstConsumer claim. Keys are `claim:<ns>/<name>` and
 * `volume:<name>`.
 */
export function persistentVolumeController(): ControllerDefinition {
  return {
    name: 'persistentvolume',
    watches: {
      kinds: [persistentVolumeClaims, persistentVolumes, storageClasses, nodes],
      // Node heartbeats change nothing here; only its annotations (the local-path root) do.
      wakesOn: (resource, _type, object, previous) =>
        !sameResource(resource, nodes) ||
        JSON.stringify(object.metadata.annotations ?? {}) !==
          JSON.stringify(previous?.metadata.annotations ?? {}),
      keysFor,
      allKeys: (cache) => [
        ...cache.list(persistentVolumeClaims).map(keyOfClaim),
        ...cache.list(persistentVolumes).map((v) => volumeKey(v.metadata.name ?? '')),
      ],
    },
    reconcile: reconcileStorage,
  }
}
