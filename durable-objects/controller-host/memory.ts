import type { ControllerMemory } from '../../src/controllers/runtime/memory'

const prefix = 'memory/'
/** the most keys one storage put or delete takes */
const batch = 128

/** Fills a new controller instance's memory from what earlier instances saved. */
export async function restoreMemory(storage: DurableObjectStorage, memory: ControllerMemory): Promise<void> {
  const saved = await storage.list({ prefix })
  memory.restore([...saved].map(([key, value]) => [key.slice(prefix.length), value]))
}

/** Writes the entries that changed since the last save, and deletes those that went. */
export async function saveMemory(storage: DurableObjectStorage, memory: ControllerMemory): Promise<void> {
  const puts: [string, unknown][] = []
  const deletes: string[] = []
  for (const [key, value] of memory.takeChanges()) {
    if (value === undefined) deletes.push(prefix + key)
    else puts.push([prefix + key, value])
  }
  for (let i = 0; i < puts.length; i += batch) await storage.put(Object.fromEntries(puts.slice(i, i + batch)))
  for (let i = 0; i < deletes.length; i += batch) await storage.delete(deletes.slice(i, i + batch))
}
