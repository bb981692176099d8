/**
 * A write under a guard: a check that must pass on the exact object a create or update stores, as
 * kube-apiserver runs RBAC's escalation check and its other admission checks inside the storage's
 * update loop. The object stored now is read (an update's guard judges the change from it), the
 * write is computed from that version as a dry run, the guard checks the result, and the write is
 * made only if the stored object is still that version (an apply that would create it: only if it
 * still does not exist), so the store recomputes exactly what was checked. When the object changed
 * in between, the whole sequence runs again, a bounded number of times.
 */
import type { KubeObject, Status } from '../apimachinery/types'
import type { StoreResult } from '../apimachinery/status'
import type { AdmissionDecision, WriteResult } from '../apis/store-options'

/**
 * The Status to refuse the object a write would store with, or undefined to let it be stored;
 * `old` is the stored object the write replaces, undefined when it creates one.
 */
export type WriteGuard = (
  object: KubeObject,
  old: KubeObject | undefined,
) => Promise<Status | undefined>

/** Both guards, the first's refusal answering; undefined when neither is given. */
export function bothGuards(
  first: WriteGuard | undefined,
  second: WriteGuard | undefined,
): WriteGuard | undefined {
  if (!first || !second) return first ?? second
  return async (object, old) => (await first(object, old)) ?? second(object, old)
}

/** One step of a write: a dry run, or the write conditioned on the version admission saw. */
export type GuardedStep = (step: {
  dryRun?: boolean
  admission?: AdmissionDecision
}) => Promise<StoreResult<WriteResult>>

/** The stored object a write would replace, as the store's get answers (404: none). */
export type StoredRead = () => Promise<StoreResult<string>>

/** How often a guarded write whose object changed under its check is tried again before its 409 is answered. */
export const guardedWriteAttempts = 5

/** A conflict with a concurrent write (not AlreadyExists, also a 409). */
export const isConflict = (status: Status): boolean =>
  status.code === 409 && status.reason === 'Conflict'

/**
 * The write computed, checked by `guard`, and made from the version checked; `dryRun` stops after
 * the check. `read` gives the object an update or patch would replace (a create replaces none).
 * Without a guard, the write is simply made.
 */
export async function guardedWrite(
  guard: WriteGuard | undefined,
  dryRun: boolean,
  write: GuardedStep,
  read?: StoredRead,
): Promise<StoreResult<WriteResult>> {
  if (!guard) return write({})
  for (let attempt = 1; ; attempt++) {
    const stored = read ? await read() : undefined
    if (stored && !stored.ok && stored.status.code !== 404)
      return { ok: false, status: stored.status }
    const old = stored?.ok ? (JSON.parse(stored.value) as KubeObject) : undefined
    // From this version, or (none stored) only as a create.
    const admission = { resourceVersion: old?.metadata.resourceVersion ?? '' }
    const trial = await write({ dryRun: true, admission })
    let made = trial
    if (trial.ok) {
      const refused = await guard(JSON.parse(trial.value.object) as KubeObject, old)
      if (refused) return { ok: false, status: refused }
      if (dryRun) return trial
      made = await write({ admission })
    }
    if (made.ok || !isConflict(made.status) || attempt >= guardedWriteAttempts) return made
  }
}
