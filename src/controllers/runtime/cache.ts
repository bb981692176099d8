import type { KubeObject } from '../../apimachinery/types'
import type { Cache, ResourceRef } from './types'

export const refKey = (r: ResourceRef) => `${r.group}/${r.version}/${r.plural}`
export const objectKeyOf = (o: KubeObject) => (o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : `${o.metadata.name}`)
const rvOf = (o: KubeObject) => Number(o.metadata.resourceVersion ?? 0)

/** One resource's informer store: objects by key, and how far through the change log it has read. */
export class ResourceCache {
  readonly objects = new Map<string, KubeObject>()
  /** keys this controller deleted itself, with the deletion's rv, until the log catches up */
  private readonly tombstones = new Map<string, number>()
  rv = 0
  synced = false

  reset(objects: KubeObject[], rv: number): void {
    this.objects.clear()
    this.tombstones.clear()
    for (const o of objects) this.objects.set(objectKeyOf(o), o)
    this.rv = rv
    this.synced = true
  }

  /**
   * Applies a change read from the log; returns the previous object. A change older than what the
   * cache already holds (our own writes are applied as soon as they succeed) is ignored, so a
   * stale replay never undoes a newer write.
   */
  apply(type: 'ADDED' | 'MODIFIED' | 'DELETED', obj: KubeObject): { previous?: KubeObject; applied: boolean } {
    const key = objectKeyOf(obj)
    const previous = this.objects.get(key)
    const rv = rvOf(obj)
    const deletedAt = this.tombstones.get(key)
    if (deletedAt !== undefined) {
      if (rv < deletedAt) return { previous, applied: false }
      this.tombstones.delete(key)
    }
    if (previous && rvOf(previous) > rv) return { previous, applied: false }
    if (type === 'DELETED') this.objects.delete(key)
    else this.objects.set(key, obj)
    return { previous, applied: true }
  }

  /** Records the result of our own successful write. */
  put(obj: KubeObject): void {
    const key = objectKeyOf(obj)
    const current = this.objects.get(key)
    if (!current || rvOf(current) <= rvOf(obj)) this.objects.set(key, obj)
  }

  remove(key: string, rv: number): void {
    this.objects.delete(key)
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
    return this.of(r).objects.get(namespace ? `${namespace}/${name}` : name)
  }

  list(r: ResourceRef, namespace?: string): KubeObject[] {
    const all = [...this.of(r).objects.values()]
    return namespace === undefined ? all : all.filter((o) => o.metadata.namespace === namespace)
  }
}
