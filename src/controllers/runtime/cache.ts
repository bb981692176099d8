import type { KubeObject } from '../../apimachinery/types'
import type { Cache, ResourceRef } from './types'
import { namespacedKey, objectKey } from '../../apimachinery/object-key'
import { projectionFor } from './projection'
import { keepsWhole, type Fields } from './fields'

export const refKey = (r: ResourceRef) => `${r.group}/${r.version}/${r.plural}`
const rvOf = (o: KubeObject) => Number(o.metadata.resourceVersion ?? 0)
const nodeNameOf = (o: KubeObject): string | undefined => {
  const n = (o.spec as { nodeName?: unknown } | undefined)?.nodeName
  return typeof n === 'string' && n !== '' ? n : undefined
}
const ownerUidsOf = (o: KubeObject): string[] =>
  Array.isArray(o.metadata.ownerReferences)
    ? o.metadata.ownerReferences.map((r) => r.uid).filter((u) => !!u)
    : []

/** A map of buckets of objects by key: one secondary index. */
class Index {
  private readonly buckets = new Map<string, Map<string, KubeObject>>()

  add(value: string, key: string, obj: KubeObject): void {
    let bucket = this.buckets.get(value)
    if (!bucket) this.buckets.set(value, (bucket = new Map()))
    bucket.set(key, obj)
  }

  remove(value: string, key: string): void {
    const bucket = this.buckets.get(value)
    bucket?.delete(key)
    if (bucket && !bucket.size) this.buckets.delete(value)
  }

  list(value: string): KubeObject[] {
    const bucket = this.buckets.get(value)
    return bucket ? [...bucket.values()] : []
  }

  clear(): void {
    this.buckets.clear()
  }
}

export interface ResourceCacheOptions {
  /** what the cache keeps of each object (everything when unset) */
  project?: (o: KubeObject) => KubeObject
  /** keep `bytes`, the serialized size of what is cached (strict-limits mode) */
  measure?: boolean
}

/**
 * One resource's informer store: objects by key (each kept as its projection), indexed by
 * namespace, owner uid and spec.nodeName, and how far through the change log it has read. Every
 * write goes through `set`/`delete`, so the indexes never drift.
 */
export class ResourceCache {
  private readonly objects = new Map<string, KubeObject>()
  private readonly byNamespace = new Index()
  private readonly byOwner = new Index()
  private readonly byNode = new Index()
  /** keys this controller deleted itself, with the deletion's rv, until the log catches up */
  private readonly tombstones = new Map<string, number>()
  private readonly sizes: Map<string, number> | undefined
  private readonly project: (o: KubeObject) => KubeObject
  /** serialized bytes of the cached objects, when measured */
  bytes = 0
  rv = 0
  synced = false

  constructor(opts: ResourceCacheOptions = {}) {
    this.project = opts.project ?? ((o) => o)
    if (opts.measure) this.sizes = new Map()
  }

  get size(): number {
    return this.objects.size
  }

  get(key: string): KubeObject | undefined {
    return this.objects.get(key)
  }

  /** Every object, or those of one namespace (read from the index, not by a scan). */
  list(namespace?: string): KubeObject[] {
    if (namespace === undefined) return [...this.objects.values()]
    return this.byNamespace.list(namespace)
  }

  /** The objects naming this uid in their ownerReferences. */
  ownedBy(uid: string): KubeObject[] {
    return this.byOwner.list(uid)
  }

  /** The objects whose spec.nodeName is this node. */
  onNode(nodeName: string): KubeObject[] {
    return this.byNode.list(nodeName)
  }

  set(key: string, obj: KubeObject): void {
    this.delete(key)
    const kept = this.project(obj)
    this.objects.set(key, kept)
    this.byNamespace.add(kept.metadata.namespace ?? '', key, kept)
    for (const uid of ownerUidsOf(kept)) this.byOwner.add(uid, key, kept)
    const node = nodeNameOf(kept)
    if (node !== undefined) this.byNode.add(node, key, kept)
    if (this.sizes) {
      const size = JSON.stringify(kept).length
      this.sizes.set(key, size)
      this.bytes += size
    }
  }

  delete(key: string): void {
    const obj = this.objects.get(key)
    if (!obj) return
    this.objects.delete(key)
    this.byNamespace.remove(obj.metadata.namespace ?? '', key)
    for (const uid of ownerUidsOf(obj)) this.byOwner.remove(uid, key)
    const node = nodeNameOf(obj)
    if (node !== undefined) this.byNode.remove(node, key)
    if (this.sizes) {
      this.bytes -= this.sizes.get(key) ?? 0
      this.sizes.delete(key)
    }
  }

  reset(objects: KubeObject[], rv: number): void {
    this.objects.clear()
    this.byNamespace.clear()
    this.byOwner.clear()
    this.byNode.clear()
    this.tombstones.clear()
    this.sizes?.clear()
    this.bytes = 0
    for (const o of objects) this.set(objectKey(o), o)
    this.rv = rv
    this.synced = true
  }

  /**
   * Applies a change read from the log; returns the previous object. A change older than what the
   * cache already holds (our own writes are applied as soon as they succeed) is ignored, so a
   * stale replay never undoes a newer write.
   */
  apply(
    type: 'ADDED' | 'MODIFIED' | 'DELETED',
    obj: KubeObject,
  ): { previous?: KubeObject; applied: boolean } {
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

  /**
   * `measure`: keep the serialized size of every cache (strict-limits mode); `reads`: the fields of
   * each kind the controller reads (its definition's `reads`), all that its caches keep.
   */
  constructor(
    private readonly measure = false,
    private readonly reads: (r: ResourceRef) => Fields | undefined = () => undefined,
  ) {}

  of(r: ResourceRef): ResourceCache {
    let c = this.byResource.get(refKey(r))
    if (!c) {
      c = new ResourceCache({ project: projectionFor(r, this.reads(r)), measure: this.measure })
      this.byResource.set(refKey(r), c)
    }
    return c
  }

  /**
   * Whether the cached objects of this kind hold the field `name` whole (`undefined`: the whole
   * object), so that writing one back in full loses nothing.
   */
  keepsWhole(r: ResourceRef, name?: string): boolean {
    const reads = this.reads(r)
    return name === undefined ? reads === undefined : keepsWhole(reads, name)
  }

  /** The serialized bytes of everything cached (0 unless measured). */
  get bytes(): number {
    let n = 0
    for (const c of this.byResource.values()) n += c.bytes
    return n
  }

  get(r: ResourceRef, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.of(r).get(namespacedKey(namespace, name))
  }

  list(r: ResourceRef, namespace?: string): KubeObject[] {
    return this.of(r).list(namespace)
  }

  ownedBy(r: ResourceRef, uid: string): KubeObject[] {
    return this.of(r).ownedBy(uid)
  }

  onNode(r: ResourceRef, nodeName: string): KubeObject[] {
    return this.of(r).onNode(nodeName)
  }
}
