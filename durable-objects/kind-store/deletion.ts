import type { KubeObject, Status } from '../../src/apimachinery/types'
import { conflict } from '../../src/apimachinery/status'
import { formatTime } from '../../src/apimachinery/meta-time'
import type { ResourceDef } from '../../src/apis/registry'
import type { DeleteOptions } from '../../src/apis/store-options'
import type { StoreStrategy } from '../../src/apis/store-strategy'

/**
 * A write's preconditions (a DELETE's `preconditions`, a binding's UID) against the stored object
 * at `rv`: the 409 kube-apiserver answers when one fails.
 */
export function failedPrecondition(
  def: Pick<ResourceDef, 'group' | 'plural'>,
  name: string,
  pre: { uid?: string; resourceVersion?: string },
  old: KubeObject,
  rv: number,
): Status | undefined {
  const failed = (message: string) =>
    conflict(def.group, def.plural, name, `Precondition failed: ${message}`)
  if (pre.uid && pre.uid !== old.metadata.uid)
    return failed(`UID in precondition: ${pre.uid}, UID in object meta: ${old.metadata.uid}`)
  if (pre.resourceVersion && pre.resourceVersion !== String(rv))
    return failed(
      `ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${rv}`,
    )
  return undefined
}

/**
 * What a DELETE at `nowMs` makes of an object, as kube-apiserver decides it: undefined when it goes
 * now; else the object kept with its `deletionTimestamp` (now plus the grace period, shortened
 * but never lengthened by a later DELETE) and the finalizer its propagation policy records
 * (`orphan`, `foregroundDeletion`) for the garbage collector.
 */
export function deletionOf(
  kind: StoreStrategy,
  old: KubeObject,
  opts: DeleteOptions,
  nowMs: number,
): KubeObject | undefined {
  const grace = kind.gracePeriod(old, opts.gracePeriodSeconds)
  const finalizers = [...(old.metadata.finalizers ?? [])]
  const policyFinalizer =
    opts.propagationPolicy === 'Orphan'
      ? 'orphan'
      : opts.propagationPolicy === 'Foreground'
        ? 'foregroundDeletion'
        : undefined
  if (policyFinalizer && !finalizers.includes(policyFinalizer)) finalizers.push(policyFinalizer)
  const stays = finalizers.length > 0 || grace > 0 || kind.pendingFinalizers(old).length > 0
  if (!stays) return undefined
  const meta = { ...old.metadata, finalizers: finalizers.length ? finalizers : undefined }
  const already = old.metadata.deletionTimestamp
  const previousGrace = Number(old.metadata.deletionGracePeriodSeconds ?? 0)
  if (!already || grace < previousGrace) {
    meta.deletionTimestamp = formatTime(nowMs + grace * 1000)
    meta.deletionGracePeriodSeconds = grace
  }
  if (meta.finalizers === undefined) delete meta.finalizers
  return { ...old, metadata: meta }
}
