import type { KubeObject } from '../apimachinery/types'
import { badRequest, failure, type StoreResult } from '../apimachinery/status'
import {
  applyJsonPatch,
  applyMergePatch,
  applyStrategicMergePatch,
  PatchError,
} from '../apimachinery/patch'
import { kindStruct, schemas } from './schema'
import type { ResourceDef } from './resource-def'
import { applyToLive, checkConfig, type ApplyOptions } from './ssa/apply'
import type { PatchType } from './store-options'
import {
  isStackExhaustion,
  nestedDeeperThan,
  tooDeeplyNestedMessage,
} from '../apimachinery/nesting'

/** Maps a request Content-Type to the patch it carries. */
export function patchTypeOf(contentType: string | null): PatchType | undefined {
  const media = (contentType ?? '').split(';')[0]!.trim().toLowerCase()
  if (media === 'application/json-patch+json') return 'json'
  if (media === 'application/merge-patch+json') return 'merge'
  if (media === 'application/strategic-merge-patch+json') return 'strategic'
  if (media === 'application/apply-patch+yaml' || media === 'application/apply-patch+cbor')
    return 'apply'
  return undefined
}

/**
 * Applies a patch to the stored object (or to its Scale view); an apply patch needs its manager's
 * options. A result nested deeper than maxNestingDepth is refused (400) as a body would be: a JSON
 * patch can build one out of shallow pieces.
 */
export function applyPatch(
  def: ResourceDef,
  type: PatchType,
  original: KubeObject,
  patch: unknown,
  view?: 'status' | 'scale',
  apply?: ApplyOptions,
): StoreResult<KubeObject> {
  let result: StoreResult<KubeObject>
  try {
    result = patched(def, type, original, patch, view, apply)
  } catch (e) {
    if (isStackExhaustion(e)) return { ok: false, status: badRequest(tooDeeplyNestedMessage) }
    throw e
  }
  if (result.ok && nestedDeeperThan(result.value))
    return { ok: false, status: badRequest(tooDeeplyNestedMessage) }
  return result
}

function patched(
  def: ResourceDef,
  type: PatchType,
  original: KubeObject,
  patch: unknown,
  view?: 'status' | 'scale',
  apply?: ApplyOptions,
): StoreResult<KubeObject> {
  if (type === 'apply' && apply && view !== 'scale') {
    const config = checkConfig(def, original.metadata.name ?? '', patch)
    return config.ok ? applyToLive(def, original, config.value, apply) : config
  }
  let result: unknown
  try {
    if (type === 'json') result = applyJsonPatch(original, patch)
    else if (type === 'merge') result = applyMergePatch(original, patch)
    else if (type === 'strategic') {
      const struct =
        view === 'scale'
          ? 'io.k8s.api.autoscaling.v1.Scale'
          : kindStruct(def.group, def.version, def.kind)
      result = applyStrategicMergePatch(original, patch, struct, schemas)
    } else {
      return {
        ok: false,
        status: failure(
          415,
          'UnsupportedMediaType',
          'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json',
        ),
      }
    }
  } catch (e) {
    if (e instanceof PatchError)
      return { ok: false, status: e.code === 500 ? badRequest(e.message) : e.toStatus() }
    throw e
  }
  if (!result || typeof result !== 'object' || Array.isArray(result)) {
    return { ok: false, status: failure(400, 'BadRequest', 'the patch did not produce an object') }
  }
  const obj = result as KubeObject
  if (!obj.metadata || typeof obj.metadata !== 'object') obj.metadata = {}
  return { ok: true, value: obj }
}
