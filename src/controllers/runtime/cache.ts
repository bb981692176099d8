import type { KubeObject } from '../../apimachinery/types'
import type { Cache, ResourceRef } from './types'
import { objectKey } from '../../apimachinery/object-key'

export const refKey = (r: ResourceRef) => `${r.group}/${r.version}/${r.plural}`
const rvOf = (o: KubeObject) => Number(o.metadata.resourceVersion ?? 0)

/**
 * One resource's informer store: objects by key, indexed by namespace, and how far through the
 * change log it has read. Every write goes through `set`/`delete`, so the index never drifts.
 */
export class ResourceCache {
  private readonly objects = new Map<string, KubeObject>()
  private readonly byNamespace = new Map<string, Map<string, KubeObject>>()
  /** keys this controller deleted itself, with the deletion's rv, until the log catches up */
  private readonly tombstones = new Map<string, number>()
  rv = 0
  synced = false

  get size(): number {
    return this.objects.size
  }

  get(key: string): KubeObject | undefined {
    return this.objects.get(key)
  }

  /** Every object, or those of one namespace (read from the index, not by a scan). */
  list(namespace?: string): KubeObject[] {
    if (namespace === undefined) return [...this.objects.values()]
    const inNamespace = this.byNamespace.get(namespace)
    return inNamespace ? [...inNamespace.values()] : []
  }

  set(key: string, obj: KubeObject): void {
    this.objects.set(key, obj)
    const ns = obj.metadata.namespace ?? ''
    let bucket = this.byNamespace.get(ns)
    if (!bucket) this.byNamespace.set(ns, (bucket = new Map()))
    bucket.set(key, obj)
  }

  delete(key: string): void {
    const obj = this.objects.get(key)
    if (!obj) return
    this.objects.delete(key)
    const ns = obj.metadata.namespace ?? ''
    const bucket = this.byNamespace.get(ns)
    bucket?.delete(key)
    if (bucket && !bucket.size) this.byNamespace.delete(ns)
  }

  reset(objects: KubeObject[], rv: number): void {
    this.objects.clear()
    this.byNamespace.clear()
    this.tombstones.clear()
    for (const o of objects) this.set(objectKey(o), o)
    this.rv = rv
    this.synced = true
  }

  /**
   * Applies a change read from the log; returns the previous object. A change older than what the
   * cache already holds (our own writes are applied as soon as they succeed) is ignored, so a
   * stale replay never undoes a newer write.
   */
  apply(type: 'ADDED' | 'MODIFIED' | 'DELETED', obj: KubeObject): { previous?: KubeObject; applied: boolean } {
    const key = objectKey(obj)
    const previous = this.objects.get(key)
    const rv = rvOf(obj)
    const deletedAt = this.tombstones.get(key)
    if (deletedAt !== undefined) {
      if (rv < deletedAt) return { previous, applied: false }
      this.tombstones.delete(key)
    }
    if (previous && rvOf(previous) > rv) return { previous, applied: false }
    if (type === 'DELETED') this.delete(key)
    else this.set(key, obj)
    return { previous, applied: true }
  }

  /** Records the result of our own successful write. */
  put(obj: KubeObject): void {
    const key = objectKey(obj)
    const current = this.objects.get(key)
    if (!current || rvOf(current) <= rvOf(obj)) this.set(key, obj)
  }

  remove(key: string, rv: number): void {
    this.delete(key)
    this.tombstones.set(key, rv)
  }
}

/** The caches of every resource a controller watches, read through the `Cache` view. */
export class InformerCaches implements Cache {
  private readonly byResource = new Map<string, ResourceCache>()

  of(r: ResourceRef): ResourceCache {
    let c = this.byResource.get(refKey(r))
    if (!c) {
      c = new ResourceCache()
      this.byResource.set(refKey(r), c)
    }
    return c
  }

  get(r: ResourceRef, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.of(r).get(namespace ? `${namespace}/${name}` : name)
  }

  list(r: ResourceRef, namespace?: string): KubeObject[] {
    return this.of(r).list(namespace)
  }
}
