import type { ControllerBindings } from '../bindings'
import { InformerCaches, refKey } from './cache'
import { mergeFields, type Fields } from './fields'
import {
  ControllerRunner,
  defaultRunnerOptions,
  type RunnerOptions,
  type SharedCaches,
} from './runner'
import type { ControllerDefinition, ResourceRef } from './types'
import { sameResource } from '../resources'
import { settingsOf } from '../../settings/settings'

/**
 * What caches shared by these controllers keep of a kind: the union of the fields each one that
 * watches it reads, or the whole object when one of them reads it whole.
 */
export function unionReads(defs: ControllerDefinition[], r: ResourceRef): Fields | undefined {
  let union: Fields | undefined
  for (const def of defs) {
    if (!def.watches.kinds.some((w) => sameResource(w, r))) continue
    const reads = def.watches.reads?.(r)
    if (reads === undefined) return undefined
    union = union ? mergeFields(union, reads) : reads
  }
  return union
}

/**
 * One runner per controller, all over one set of informer caches: each kind is listed, followed
 * and held once for all of them, and each change is queued for every runner that watches its kind.
 * Each runner keeps its own queue, resync, memory and refusals.
 */
export function runnersSharingCaches(
  env: ControllerBindings,
  defs: ControllerDefinition[],
  opts: RunnerOptions = defaultRunnerOptions,
): ControllerRunner[] {
  const reads = new Map<string, Fields | undefined>()
  const readsOf = (r: ResourceRef) => {
    if (!reads.has(refKey(r))) reads.set(refKey(r), unionReads(defs, r))
    return reads.get(refKey(r))
  }
  const shared: SharedCaches = {
    caches: new InformerCaches(settingsOf(env).strictLimits, readsOf),
    runners: [],
  }
  return defs.map((def) => new ControllerRunner(env, def, opts, shared))
}
