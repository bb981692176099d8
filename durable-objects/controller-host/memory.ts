import type { ControllerMemory } from '../../src/controllers/runtime/memory'

/** where a controller's memory is kept in its host's storage */
export const memoryPrefix = (controller: string) => `memory/${controller}/`
/** the most keys one storage put or delete takes */
const batch = 128

/** Fills a new controller instance's memory from what earlier instances saved. */
export async function restoreMemory(storage: DurableObjectStorage, controller: string, memory: ControllerMemory): Promise<void> {
  const prefix = memoryPrefix(controller)
  const saved = await storage.list({ prefix })
  memory.restore([...saved].map(([key, value]) => [key.slice(prefix.length), value]))
}

/** Writes the entries that changed since the last save, and deletes those that went. */
export async function saveMemory(storage: DurableObjectStorage, controller: string, memory: ControllerMemory): Promise<void> {
  const prefix = memoryPrefix(controller)
  const puts: [string, unknown][] = []
  const deletes: string[] = []
  for (const [key, value] of memory.takeChanges()) {
    if (value === undefined) deletes.push(prefix + key)
    else puts.push([prefix + key, value])
  }
  for (let i = 0; i < puts.length; i += batch) await storage.put(Object.fromEntries(puts.slice(i, i + batch)))
  for (let i = 0; i < deletes.length; i += batch) await storage.delete(deletes.slice(i, i + batch))
}

/** Writes entries another host kept for this controller under its key prefix. */
export async function putMemory(storage: DurableObjectStorage, controller: string, entries: [string, unknown][]): Promise<void> {
  const prefix = memoryPrefix(controller)
  for (let i = 0; i < entries.length; i += batch) await storage.put(Object.fromEntries(entries.slice(i, i + batch).map(([k, v]) => [prefix + k, v])))
}
