/** The part of node:async_hooks the Worker uses (workerd serves it under nodejs_compat). */
declare module 'node:async_hooks' {
  export class AsyncLocalStorage<T> {
    getStore(): T | undefined
    run<R>(store: T, callback: () => R): R
  }
}
