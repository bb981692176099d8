/**
 * A write under a guard: a check that must pass on the exact object a create or update stores, as
 * kube-apiserver runs RBAC's escalation check inside the storage's update loop. The write is
 * first computed as a dry run; the guard checks that object; then the write is made only if the
 * stored object is still the version the dry run was computed from (an apply that would create
 * it: only if it still does not exist), so the store recomputes exactly what was checked. When
 * the object changed in between, the whole sequence runs again, a bounded number of times.
 */
import type { KubeObject, Status } from '../apimachinery/types'
import type { StoreResult } from '../apimachinery/status'
import type { AdmissionDecision, WriteResult } from '../apis/store-options'

/** The Status to refuse the object a write would store with, or undefined to let it be stored. */
export type WriteGuard = (object: KubeObject) => Promise<Status | undefined>

/** One step of a write: a dry run, or the write conditioned on the version admission saw. */
export type GuardedStep = (step: { dryRun?: boolean; admission?: AdmissionDecision }) => Promise<StoreResult<WriteResult>>

/** How often a guarded write whose object changed under its check is tried again before its 409 is answered. */
export const guardedWriteAttempts = 5

/**
 * The version a write computed by a dry run must find to store the same object: the stored
 * object's resourceVersion, or '' (nothing stored) when the dry run would create it.
 */
export function versionComputedFrom(trial: WriteResult): string {
  if (trial.created) return ''
  return (JSON.parse(trial.object) as KubeObject).metadata.resourceVersion ?? ''
}

/** A conflict with a concurrent write (not AlreadyExists, also a 409). */
export const isConflict = (status: Status): boolean => status.code === 409 && status.reason === 'Conflict'

/**
 * The write computed, checked by `guard`, and made from the version checked; `dryRun` stops after
 * the check. Without a guard, the write is simply made.
 */
export async function guardedWrite(guard: WriteGuard | undefined, dryRun: boolean, write: GuardedStep): Promise<StoreResult<WriteResult>> {
  if (!guard) return write({})
  for (let attempt = 1; ; attempt++) {
    const trial = await write({ dryRun: true })
    if (!trial.ok) return trial
    const refused = await guard(JSON.parse(trial.value.object) as KubeObject)
    if (refused) return { ok: false, status: refused }
    if (dryRun) return trial
    const made = await write({ admission: { resourceVersion: versionComputedFrom(trial.value) } })
    if (made.ok || !isConflict(made.status) || attempt >= guardedWriteAttempts) return made
  }
}
