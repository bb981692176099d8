import type { HostBindings } from '../../src/controllers/bindings'
import { hostFor, hostOfController } from '../../src/controllers/hosts'
import { countersKey } from './counters'

/** where such a host kept its one controller's memory */
const legacyMemoryPrefix = 'memory/'

/**
 * A host kept one controller's name under `controller` before hosts could run several. Such a
 * host either still runs that controller alone (its records move to the keys a host uses now), or
 * its controller moved to a shared host: it hands that host what the controller remembered, then
 * deletes its alarm and storage, so the controller never runs in two places. Returns whether the
 * host was retired.
 */
export async function retiredHost(
  storage: DurableObjectStorage,
  env: HostBindings,
): Promise<boolean> {
  const controller = await storage.get<string>('controller')
  if (controller === undefined) return false
  let host: string | undefined
  try {
    host = hostOfController(controller)
  } catch {
    host = undefined
  }
  if (host === controller) {
    const counters = await storage.get('counters')
    if (counters !== undefined) await storage.put(countersKey(controller), counters)
    await storage.put('host', host)
    await storage.delete(['controller', 'counters'])
    return false
  }
  if (host !== undefined) {
    const saved = await storage.list({ prefix: legacyMemoryPrefix })
    const entries = [...saved].map(([key, value]): [string, unknown] => [
      key.slice(legacyMemoryPrefix.length),
      value,
    ])
    if (entries.length) await hostFor(env, controller).adoptMemory(controller, entries)
  }
  await storage.deleteAlarm()
  await storage.deleteAll()
  return true
}
