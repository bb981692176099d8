import type { HostBindings } from '../../src/controllers/bindings'
import { hostFor } from '../../src/controllers/hosts'
import { controllerNames } from '../../src/controllers/registry'
import type { ControllerCounters } from './counters'

/** Every controller's counters, read from its host; a host that does not answer is left out. */
export async function gatherControllerCounters(
  env: HostBindings,
): Promise<Map<string, ControllerCounters>> {
  const names = controllerNames()
  const read = await Promise.allSettled(names.map((name) => hostFor(env, name).readCounters(name)))
  const out = new Map<string, ControllerCounters>()
  read.forEach((r, i) => {
    if (r.status === 'fulfilled') out.set(names[i]!, r.value)
    else console.error(`metrics: controller ${names[i]} did not answer`, r.reason)
  })
  return out
}
