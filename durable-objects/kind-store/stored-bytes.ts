import type { KubeObject, Status } from '../../src/apimachinery/types'
import { failure } from '../../src/apimachinery/status'
import { maxStoredObjectBytes } from '../../src/config'

/** True when the stored bytes would not change (then the write keeps its resourceVersion). */
export function unchanged(old: KubeObject, next: KubeObject): boolean {
  const strip = (o: KubeObject) =>
    JSON.stringify({ ...o, metadata: { ...o.metadata, resourceVersion: undefined } })
  return strip(old) === strip(next)
}

/** The 413 for an object larger than a store keeps. */
export function sizeCheck(obj: KubeObject): Status | undefined {
  const size = JSON.stringify(obj).length
  if (size <= maxStoredObjectBytes) return undefined
  return failure(
    413,
    'RequestEntityTooLarge',
    `Request entity too large: the object is ${size} bytes; the limit is ${maxStoredObjectBytes}`,
  )
}
