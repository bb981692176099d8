/** Calling the admission webhooks: the mutating ones in order, then the validating ones together. */
import type { AdmissionBindings } from '../bindings'
import type { KubeObject, Status } from '../../apimachinery/types'
import type { StoreResult } from '../../apimachinery/status'
import type { ResourceDef } from '../../apis/resource-def'
import { applyPatch } from '../../apis/patching'
import type { ConfiguredWebhook } from './configurations'
import { callFailure, denial, review, type ReviewRequest } from './review'

/** The mutating webhooks in order, each shown the object as the ones before it left it. */
export async function mutate(
  env: AdmissionBindings,
  def: ResourceDef,
  hooks: ConfiguredWebhook[],
  base: Omit<ReviewRequest, 'object'>,
  start: KubeObject,
  applies: (h: ConfiguredWebhook, o: KubeObject) => boolean,
  warnings: string[],
): Promise<StoreResult<{ patch: unknown[] }>> {
  const patch: unknown[] = []
  let object = start
  const mutating = hooks.filter((h) => h.mutating)
  const calledAt = new Map<ConfiguredWebhook, number>()
  const callOne = async (h: ConfiguredWebhook): Promise<Status | undefined> => {
    if (!applies(h, object)) return undefined
    const outcome = await review(env, h.hook, true, { ...base, object })
    if ('skipped' in outcome || 'refused' in outcome)
      return 'refused' in outcome ? outcome.refused : undefined
    if ('error' in outcome)
      return h.hook.failurePolicy === 'Ignore' ? undefined : callFailure(h.hook.name, outcome.error)
    warnings.push(...outcome.warnings)
    if (!outcome.allowed) return denial(h.hook.name, outcome.status)
    calledAt.set(h, patch.length)
    if (!outcome.patch?.length) return undefined
    const next = applyPatch(def, 'json', object, outcome.patch)
    if (!next.ok)
      return callFailure(
        h.hook.name,
        `the webhook's patch could not be applied: ${next.status.message}`,
      )
    object = next.value
    patch.push(...outcome.patch)
    calledAt.set(h, patch.length)
    return undefined
  }
  for (const h of mutating) {
    const refused = await callOne(h)
    if (refused) return { ok: false, status: refused }
  }
  // reinvocationPolicy IfNeeded: once more for a webhook whose object a later webhook changed.
  for (const h of mutating) {
    const at = calledAt.get(h)
    if (h.hook.reinvocationPolicy !== 'IfNeeded' || at === undefined || at === patch.length)
      continue
    const refused = await callOne(h)
    if (refused) return { ok: false, status: refused }
  }
  return { ok: true, value: { patch } }
}

/** The validating webhooks, called together; the first refusal in their order answers. */
export async function validate(
  env: AdmissionBindings,
  hooks: ConfiguredWebhook[],
  base: Omit<ReviewRequest, 'object'>,
  object: KubeObject | undefined,
  applies: (h: ConfiguredWebhook, o: KubeObject | undefined) => boolean,
  warnings: string[],
): Promise<{ ok: false; status: Status } | undefined> {
  const validating = hooks.filter((h) => !h.mutating && applies(h, object))
  const outcomes = await Promise.all(
    validating.map((h) => review(env, h.hook, false, { ...base, object })),
  )
  for (const [i, outcome] of outcomes.entries()) {
    const h = validating[i]!
    if ('skipped' in outcome || 'refused' in outcome) {
      if ('refused' in outcome) return { ok: false, status: outcome.refused }
      continue
    }
    if ('error' in outcome) {
      if (h.hook.failurePolicy === 'Ignore') continue
      return { ok: false, status: callFailure(h.hook.name, outcome.error) }
    }
    warnings.push(...outcome.warnings)
    if (!outcome.allowed) return { ok: false, status: denial(h.hook.name, outcome.status) }
  }
  return undefined
}
