import { persistentVolumeClaims, pods } from '../resources'
import { isAlreadyExists, refusedCreate } from '../runtime/refusal'
import type { Action, Refused } from '../runtime/types'
import type { StatefulSet } from './types'

/** The pod a claim of the set was made for: `<template>-<set>-<ordinal>` belongs to `<set>-<ordinal>`. */
function podOfClaim(set: StatefulSet, claim: string): string | undefined {
  for (const t of set.spec.volumeClaimTemplates ?? []) {
    const prefix = `${t.metadata.name}-${set.metadata.name}-`
    const ordinal = claim.startsWith(prefix) ? claim.slice(prefix.length) : ''
    if (/^(0|[1-9][0-9]*)$/.test(ordinal)) return `${set.metadata.name}-${ordinal}`
  }
  return undefined
}

/**
 * recordPodEvent and recordClaimEvent for the create the API refused in the previous pass: a
 * refused pod is `create Pod <pod> in StatefulSet <set> failed error: <err>`; a refused claim gets
 * its own event and its pod's (`failed to create PVC <claim>: <err>`). An AlreadyExists is not
 * reported: the object is there.
 */
export function failedCreateEvents(set: StatefulSet, refused: Refused | undefined): Action[] {
  const setName = set.metadata.name
  const warn = (message: string): Action => ({
    type: 'event',
    involved: set,
    eventType: 'Warning',
    reason: 'FailedCreate',
    message,
  })
  const pod = refusedCreate(refused, pods)
  if (pod && !isAlreadyExists(pod.status))
    return [
      warn(
        `create Pod ${pod.object.metadata.name} in StatefulSet ${setName} failed error: ${pod.message}`,
      ),
    ]
  const claim = refusedCreate(refused, persistentVolumeClaims)
  if (!claim || isAlreadyExists(claim.status)) return []
  const claimName = claim.object.metadata.name ?? ''
  const podName = podOfClaim(set, claimName) ?? ''
  return [
    warn(
      `create Claim ${claimName} for Pod ${podName} in StatefulSet ${setName} failed error: ${claim.message}`,
    ),
    warn(
      `create Pod ${podName} in StatefulSet ${setName} failed error: failed to create PVC ${claimName}: ${claim.message}`,
    ),
  ]
}
