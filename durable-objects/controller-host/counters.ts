import type { LimitFigures } from '../../src/limits/strict'

/**
 * What one controller has done since its host's Durable Object was created. The counters live in the
 * object's storage, so they survive eviction and restarts of the process and only ever grow;
 * `since` is when counting began (epoch ms).
 */
export interface ControllerCounters {
  /** alarms fired: every wake-up, whatever it led to */
  alarms: number
  /** change notifications received (each brings the next alarm forward); stored with the next alarm's counts */
  notifications: number
  /** reconcile passes run, failed ones included */
  passes: number
  /** passes that failed as a whole (a store could not be read) */
  failedPasses: number
  /** keys reconciled over all passes */
  reconciles: number
  since: number
  /** in strict-limits mode: the largest invocation, RPC, cache and pass seen, and the limits passed */
  limits?: LimitFigures
}

/** where a controller's counters are kept in its host's storage */
export const countersKey = (controller: string) => `counters/${controller}`

/** A controller's counters kept in its host's `storage`, created at zero on first use. */
export async function loadCounters(
  storage: DurableObjectStorage,
  controller: string,
): Promise<ControllerCounters> {
  const zero: ControllerCounters = {
    alarms: 0,
    notifications: 0,
    passes: 0,
    failedPasses: 0,
    reconciles: 0,
    since: Date.now(),
  }
  return { ...zero, ...(await storage.get<Partial<ControllerCounters>>(countersKey(controller))) }
}

export function saveCounters(
  storage: DurableObjectStorage,
  controller: string,
  counters: ControllerCounters,
): Promise<void> {
  return storage.put(countersKey(controller), counters)
}
