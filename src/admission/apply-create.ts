import type { AdmissionBindings } from './bindings'
import type { KubeObject } from '../apimachinery/types'
import type { StoreResult } from '../apimachinery/status'
import type { PatchType } from '../apis/store-options'
import { isTrackedKind } from '../apis/quota/tracked'
import { storeFor } from '../store-client/stores'
import type { Target, WriteOptions, WriteResult } from '../apis/store-options'
import { admitCreate } from './create'
import { kindPluginsOf } from './kind-plugins'

/**
 * A server-side apply that would create an object is a create: its kind's own admission plugins
 * that run on applies (a pod's Priority and RuntimeClass) see the configuration; and for a
 * quota-counted object (a pod, a Service, …) the object the apply would make is admitted as one
 * (LimitRange defaults, quota) and created as admitted (by `create`, which runs the remaining
 * admission). Undefined when the apply updates an existing object (or the kind is not counted);
 * the caller then applies as usual.
 */
export async function applyCreate(
  env: AdmissionBindings,
  target: Target,
  type: PatchType,
  patch: unknown,
  opts: WriteOptions,
  create: (obj: KubeObject, opts: WriteOptions) => Promise<StoreResult<WriteResult>>,
): Promise<StoreResult<WriteResult> | undefined> {
  if (type !== 'apply') return undefined
  const store = storeFor(env, target.def)
  const plugins = kindPluginsOf(target.def)
  // The kind's own plugins see the configuration applied, as a POST's see its body.
  if (plugins?.onApplyCreate && !(await store.get(target)).ok)
    await plugins.admit(env, patch as KubeObject)
  if (!target.namespace || !isTrackedKind(target.def)) return undefined
  if ((await store.get(target)).ok) return undefined
  const trial = await store.patch(target, type, patch, undefined, { ...opts, dryRun: true })
  if (!trial.ok) return trial as StoreResult<WriteResult>
  if (!trial.value.created) return undefined
  const obj = JSON.parse(trial.value.object) as KubeObject
  await admitCreate(env, target, obj, opts)
  // The apply's ownership is already recorded in the object: the create must not record it again.
  const created = await create(obj, { ...opts, fieldManager: undefined })
  // The client is owed the apply's warnings (unknown fields it dropped) and admission's.
  return created.ok
    ? { ...created, warnings: [...(trial.warnings ?? []), ...(created.warnings ?? [])] }
    : created
}
