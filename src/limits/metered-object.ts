import { ObjectMeter } from './object-meter'

const meters = new WeakMap<object, ObjectMeter>()

/**
 * The state a Durable Object is built with. In strict-limits mode (`strict`) its storage counts
 * what the platform bills (see ObjectMeter): SQL cursors' rows, KV keys, alarm writes. Otherwise
 * it is the state itself, and nothing is counted.
 */
export function meteredState<P>(
  ctx: DurableObjectState<P>,
  strict: boolean,
): DurableObjectState<P> {
  if (!strict) return ctx
  const meter = new ObjectMeter(ctx.storage)
  const storage = countingStorage(ctx.storage, meter)
  const state = new Proxy(ctx, {
    get: (target, prop) => (prop === 'storage' ? storage : bound(target, prop)),
  })
  meters.set(state, meter)
  return state
}

/** The meter of a state made by meteredState, if counting is on. */
export function meterOf(ctx: object): ObjectMeter | undefined {
  return meters.get(ctx)
}

/** Work an invocation leaves pending (an outgoing call) keeps the object active until it settles. */
export function whileBusy<T>(ctx: object, work: Promise<T>): Promise<T> {
  const meter = meterOf(ctx)
  return meter ? meter.busy(work) : work
}

/** How an entry point is named in the counts: `rpc:<method>`, `http`, `alarm`, `ws:message`, `ws:close`, `ws:error`. */
export function entryName(method: string): string {
  const handlers: Record<string, string> = {
    fetch: 'http',
    alarm: 'alarm',
    webSocketMessage: 'ws:message',
    webSocketClose: 'ws:close',
    webSocketError: 'ws:error',
  }
  return handlers[method] ?? `rpc:${method}`
}

/**
 * Makes each named method of a Durable Object class an entry point its meter counts, and each of
 * `quiet` (the meter's own reads) one it does not. The class builds its state with meteredState.
 */
export function meterEntryPoints(
  cls: { prototype: object },
  entries: readonly string[],
  quiet: readonly string[] = [],
): void {
  const proto = cls.prototype as Record<string, unknown>
  for (const method of [...entries, ...quiet]) {
    const original = proto[method]
    if (typeof original !== 'function')
      throw new Error(`meterEntryPoints: ${method} is not a method`)
    const name = entryName(method)
    const silent = quiet.includes(method)
    proto[method] = function (this: { ctx: object }, ...args: unknown[]) {
      const meter = meterOf(this.ctx)
      const call = () => Reflect.apply(original, this, args) as unknown
      if (!meter) return call()
      return silent ? meter.quiet(call) : meter.entry(name, call)
    }
  }
}

function countingStorage(raw: DurableObjectStorage, meter: ObjectMeter): DurableObjectStorage {
  const sql = new Proxy(raw.sql, {
    get: (target, prop) => {
      if (prop !== 'exec') return bound(target, prop)
      return (...args: Parameters<SqlStorage['exec']>) => {
        const cursor = target.exec(...args)
        meter.cursor(cursor)
        return cursor
      }
    },
  })
  const keys = (k: unknown) =>
    Array.isArray(k) ? k.length : typeof k === 'string' ? 1 : Object.keys(k as object).length
  const call = (method: keyof DurableObjectStorage, args: unknown[]) =>
    Reflect.apply(raw[method] as (...a: unknown[]) => unknown, raw, args)
  const counted: Partial<Record<keyof DurableObjectStorage, (...args: unknown[]) => unknown>> = {
    get: (...args) => (meter.storage('read', keys(args[0])), call('get', args)),
    put: (...args) => (meter.storage('write', keys(args[0])), call('put', args)),
    delete: (...args) => (meter.storage('write', keys(args[0])), call('delete', args)),
    // each key a list returns is a row read; deleteAll, whose keys go uncounted, as one row written
    list: async (...args) => {
      const found = (await call('list', args)) as Map<string, unknown>
      meter.storage('read', found.size)
      return found
    },
    deleteAll: (...args) => (meter.storage('write', 1), call('deleteAll', args)),
    setAlarm: (...args) => (meter.storage('alarm', 1), call('setAlarm', args)),
    deleteAlarm: (...args) => (meter.storage('alarm', 1), call('deleteAlarm', args)),
  }
  return new Proxy(raw, {
    get: (target, prop) => {
      if (prop === 'sql') return sql
      const own = typeof prop === 'string' ? counted[prop as keyof DurableObjectStorage] : undefined
      return own ?? bound(target, prop)
    },
  })
}

/** A property of a runtime object, its methods bound to it (they refuse any other `this`). */
function bound(target: object, prop: string | symbol): unknown {
  const value = Reflect.get(target, prop, target) as unknown
  return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value
}
