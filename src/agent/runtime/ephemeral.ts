/**
 * Ephemeral containers (`kubectl debug`): added to a pod that already runs, started once, never
 * restarted, and reported in `status.ephemeralContainerStatuses`. Shared by the runtimes.
 */
import type { KubeObject } from '../../apimachinery/types'
import { ephemeralSpecs, type EphemeralSpec } from '../container-env'
import type { ContainerState } from './types'

export type { EphemeralSpec }

/** Appends a record for each ephemeral container of the pod the runtime does not hold yet. */
export function addEphemeral<C extends { name: string }>(
  containers: C[],
  pod: KubeObject,
  make: (spec: EphemeralSpec) => C,
): void {
  const held = new Set(containers.map((c) => c.name))
  for (const spec of ephemeralSpecs(pod)) if (!held.has(spec.name)) containers.push(make(spec))
}

/** The pod names an ephemeral container the runtime has not taken yet: it must be handed the pod again. */
export function hasNewEphemeral(pod: KubeObject, states: ContainerState[] | undefined): boolean {
  if (!states) return false
  const held = new Set(states.filter((s) => s.ephemeral).map((s) => s.name))
  return ephemeralSpecs(pod).some((s) => !held.has(s.name))
}
