import type { ControllerMemory } from '../../src/controllers/runtime/memory'
import type { Refused } from '../../src/controllers/runtime/types'

/** where a controller's memory is kept in its host's storage */
export const memoryPrefix = (controller: string) => `memory/${controller}/`
/** where the write the API last refused for each of a controller's keys is kept in its host's storage */
export const refusalsPrefix = (controller: string) => `refused/${controller}/`
/** the most keys one storage put or delete takes */
const batch = 128

/** What a runner keeps that must outlive its host's eviction: its memory and the last refusal of each key. */
export interface RunnerState {
  readonly memory: ControllerMemory
  readonly refusals: ControllerMemory<Refused>
}

/** Fills a new runner's state from what earlier instances of its controller saved. */
export async function restoreRunnerState(
  storage: DurableObjectStorage,
  controller: string,
  runner: RunnerState,
): Promise<void> {
  await restore(storage, memoryPrefix(controller), runner.memory)
  await restore(storage, refusalsPrefix(controller), runner.refusals)
}

/**
 * Saves what changed of a runner's state since the last save. A refusal storage will not take (an
 * object past its value limit) is only lost to an eviction: its key is refused again on its next
 * reconcile anyway, so it never fails the pass.
 */
export async function saveRunnerState(
  storage: DurableObjectStorage,
  controller: string,
  runner: RunnerState,
): Promise<void> {
  await save(storage, memoryPrefix(controller), runner.memory)
  await save(storage, refusalsPrefix(controller), runner.refusals).catch((e) =>
    console.error(`controller ${controller}: refusals not saved`, e),
  )
}

async function restore<T>(
  storage: DurableObjectStorage,
  prefix: string,
  memory: ControllerMemory<T>,
): Promise<void> {
  const saved = await storage.list<T>({ prefix })
  memory.restore([...saved].map(([key, value]): [string, T] => [key.slice(prefix.length), value]))
}

/** Writes the entries that changed since the last save, and deletes those that went. */
async function save<T>(
  storage: DurableObjectStorage,
  prefix: string,
  memory: ControllerMemory<T>,
): Promise<void> {
  const puts: [string, T][] = []
  const deletes: string[] = []
  for (const [key, value] of memory.takeChanges()) {
    if (value === undefined) deletes.push(prefix + key)
    else puts.push([prefix + key, value])
  }
  for (let i = 0; i < puts.length; i += batch)
    await storage.put(Object.fromEntries(puts.slice(i, i + batch)))
  for (let i = 0; i < deletes.length; i += batch) await storage.delete(deletes.slice(i, i + batch))
}

/** Writes entries another host kept for this controller under its memory's key prefix. */
export async function putMemory(
  storage: DurableObjectStorage,
  controller: string,
  entries: [string, unknown][],
): Promise<void> {
  const prefix = memoryPrefix(controller)
  for (let i = 0; i < entries.length; i += batch)
    await storage.put(
      Object.fromEntries(entries.slice(i, i + batch).map(([k, v]) => [prefix + k, v])),
    )
}
