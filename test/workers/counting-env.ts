import { env } from 'cloudflare:test'
import type { Env } from '../../src/env'

/** The Worker's bindings, with every call to a store counted by method: each is one subrequest of the invocation. */
export function countingEnv(): { env: Env; calls: Record<string, number> } {
  const calls: Record<string, number> = {}
  const stores = env.KIND_STORE
  const KIND_STORE = {
    idFromName: (name: string) => stores.idFromName(name),
    get: (id: DurableObjectId) => {
      const stub = stores.get(id) as unknown as Record<string, (...args: unknown[]) => unknown>
      return new Proxy(stub, {
        get: (target, prop) => {
          if (typeof prop !== 'string' || prop === 'then') return undefined
          return (...args: unknown[]) => {
            calls[prop] = (calls[prop] ?? 0) + 1
            return target[prop]!(...args)
          }
        },
      })
    },
  }
  return { env: { ...(env as unknown as Env), KIND_STORE } as unknown as Env, calls }
}
