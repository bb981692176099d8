/**
 * A kind's store whose writes pass the admission webhooks first, for the API's handlers and the
 * controllers alike (kube-apiserver admits every write, whoever makes it). A write that no webhook's
 * or policy's rules name costs one look at this isolate's configurations. Otherwise the write is first made as
 * a dry run, giving the object as it would be stored; mutating webhooks are called in order with
 * it, their JSON patches applied one after another (a webhook with reinvocationPolicy IfNeeded is
 * called once more when a later one changed the object); the patched object is dry-run again, so
 * the ValidatingAdmissionPolicies (`../policies`) and then the validating webhooks, called
 * together, see what would be stored; then the write is made with
 * the patches, and only if the object is still the version the webhooks were shown (else the whole
 * admission runs again, as upstream retries a conflicting update).
 */
import type { AdmissionBindings } from '../bindings'
import type { KubeObject, Status } from '../../apimachinery/types'
import { ApiError, failure, type StoreResult } from '../../apimachinery/status'
import { findResource } from '../../apis/registry'
import { admissionGroup } from '../../apis/resource-table/extensions'
import type { ResourceDef } from '../../apis/resource-def'
import { applyPatch } from '../../apis/patching'
import { storeFor } from '../../store-client/stores'
import { deletePages, listPages } from '../../store-client/list-pages'
import { recentObject } from '../../store-client/recent-objects'
import type { UserInfo } from '../../apimachinery/user-info'
import type {
  DeleteOptions,
  ListOptions,
  ListResult,
  PatchType,
  Target,
  WriteOptions,
} from '../../apis/store-options'
import type { WriteResult } from '../../apis/store-options'
import { configuredWebhooks, type ConfiguredWebhook } from './configurations'
import {
  namespaceMatches,
  rulesMatch,
  selectorsMatch,
  type RuleAttributes,
  type Operation,
} from './match'
import { callFailure, denial, review, type ReviewRequest } from './review'
import { configuredPolicies, type ConfiguredPolicy } from '../policies/configurations'
import { policyMayApply, policyMayApplyIn } from '../policies/match'
import { enforcePolicies } from '../policies/dispatch'
import { guardedWrite, type WriteGuard } from '../guarded-write'
import { withPodSecurity } from '../pod-security/admit'
import type { PatchSubresource, WriteSubresource } from '../../apis/write-subresource'

type Step = Pick<WriteOptions, 'dryRun' | 'admission'>
type Write = (step: Step) => Promise<StoreResult<WriteResult>>

/** How often a write whose object changed under its admission is admitted again. */
const admissionAttempts = 3

/** `guard`, when given, must pass on the object each create, update and patch stores (see ../guarded-write). */
export function admittedStore(
  env: AdmissionBindings,
  def: ResourceDef,
  user: UserInfo,
  guard?: WriteGuard,
) {
  const store = storeFor(env, def)
  const merged = <O extends WriteOptions>(opts: O, step: Step): O => ({
    ...opts,
    dryRun: !!opts.dryRun || !!step.dryRun,
    ...(step.admission ? { admission: step.admission } : {}),
  })
  const admit = (
    t: Target,
    subresource: WriteSubresource | undefined,
    op: 'create' | 'update' | 'delete',
    opts: WriteOptions,
    options: Record<string, unknown>,
    write: Write,
    body?: KubeObject,
  ) =>
    admitWrite(
      {
        env,
        def,
        user,
        t,
        subresource,
        op,
        dryRun: !!opts.dryRun,
        options,
        guard: op === 'delete' ? undefined : guard,
      },
      withPodSecurity({ env, def, user, t, subresource, op, dryRun: !!opts.dryRun, body }, write),
    )
  return {
    create: (t: Target, body: KubeObject, opts: WriteOptions) =>
      admit(
        t,
        undefined,
        'create',
        opts,
        { kind: 'CreateOptions', ...writeOptionsOf(opts) },
        (step) => store.create(t, body, merged(opts, step)),
        body,
      ),
    update: (
      t: Target,
      body: KubeObject,
      subresource: WriteSubresource | undefined,
      opts: WriteOptions,
    ) =>
      admit(
        t,
        subresource,
        'update',
        opts,
        { kind: 'UpdateOptions', ...writeOptionsOf(opts) },
        (step) => store.update(t, body, subresource, merged(opts, step)),
      ),
    patch: (
      t: Target,
      type: PatchType,
      patch: unknown,
      subresource: PatchSubresource | undefined,
      opts: WriteOptions,
    ) =>
      admit(
        t,
        subresource,
        'update',
        opts,
        { kind: 'PatchOptions', ...writeOptionsOf(opts) },
        (step) => store.patch(t, type, patch, subresource, merged(opts, step)),
      ),
    delete: (t: Target, opts: DeleteOptions) =>
      admit(
        t,
        undefined,
        'delete',
        opts,
        { kind: 'DeleteOptions', ...deleteOptionsOf(opts) },
        (step) => store.delete(t, merged(opts, step)),
      ),
    /**
     * deletecollection: in the store page by page, unless a DELETE webhook's rules name the
     * resource; then each listed object is deleted as one admitted delete (as kube-apiserver
     * admits each item), and the first refusal ends the request.
     */
    deletePages: async function* (
      namespace: string | undefined,
      list: ListOptions,
      opts: DeleteOptions,
    ): AsyncGenerator<ListResult> {
      const attributes: RuleAttributes = {
        operation: 'DELETE',
        group: def.group,
        version: def.version,
        resource: def.plural,
        subresource: '',
        namespaced: def.namespaced,
        namespace: namespace ?? '',
      }
      const [hooks, policies] =
        def.group === admissionGroup
          ? [[], []]
          : await Promise.all([configuredWebhooks(env), configuredPolicies(env)])
      if (
        !hooks.some((h) => rulesMatch(h.hook, attributes)) &&
        !policies.some((p) => policyMayApply(p, attributes))
      )
        return yield* deletePages(env, def, namespace, list, opts)
      for await (const page of listPages(env, def, {
        ...list,
        namespace,
        limit: undefined,
        continue: undefined,
      })) {
        const items: string[] = []
        for (const text of page.items) {
          const o = JSON.parse(text) as KubeObject
          const t = { def, namespace: o.metadata.namespace, name: o.metadata.name ?? '' }
          const res = await admit(
            t,
            undefined,
            'delete',
            opts,
            { kind: 'DeleteOptions', ...deleteOptionsOf(opts) },
            (step) => store.delete(t, merged(opts, step)),
          )
          if (res.ok) items.push(res.value.object)
          else if (res.status.code !== 404) throw new ApiError(res.status)
        }
        yield { items, resourceVersion: page.resourceVersion }
      }
    },
  }
}

interface WriteCall {
  env: AdmissionBindings
  def: ResourceDef
  user: UserInfo
  t: Target
  subresource: WriteSubresource | undefined
  op: 'create' | 'update' | 'delete'
  dryRun: boolean
  options: Record<string, unknown>
  guard?: WriteGuard
}

async function admitWrite(call: WriteCall, write: Write): Promise<StoreResult<WriteResult>> {
  const { env, def, t } = call
  const unhooked = () =>
    guardedWrite(
      call.guard,
      call.dryRun,
      write,
      call.op === 'create' ? undefined : () => storeFor(env, def).get(t),
    )
  if (def.group === admissionGroup || call.subresource === 'finalize') return unhooked()
  const [hooks, policies] = await Promise.all([configuredWebhooks(env), configuredPolicies(env)])
  if (!hooks.length && !policies.length) return unhooked()
  const attributesOf = (operation: Operation): RuleAttributes => ({
    operation,
    group: def.group,
    version: def.version,
    resource: def.plural,
    subresource: call.subresource ?? '',
    namespaced: def.namespaced,
    namespace: def.namespaced ? (t.namespace ?? '') : '',
  })
  // What can be known before reading anything: the rules (an update may turn out to be an apply
  // that creates), then the namespace's labels.
  const possible: Operation[] =
    call.op === 'delete' ? ['DELETE'] : call.op === 'create' ? ['CREATE'] : ['UPDATE', 'CREATE']
  let named = hooks.filter((h) => possible.some((op) => rulesMatch(h.hook, attributesOf(op))))
  let namedPolicies = policies.filter((p) =>
    possible.some((op) => policyMayApply(p, attributesOf(op))),
  )
  if (!named.length && !namedPolicies.length) return unhooked()
  const namespace = def.namespaced ? await recentNamespace(env, t.namespace ?? '') : undefined
  const namespaceLabels = namespace ? (namespace.metadata.labels ?? {}) : undefined
  named = named.filter(
    (h) => !def.namespaced || namespaceMatches(h.hook, attributesOf(possible[0]!), namespaceLabels),
  )
  namedPolicies = namedPolicies.filter((p) =>
    policyMayApplyIn(p, attributesOf(possible[0]!), namespaceLabels),
  )
  if (!named.length && !namedPolicies.length) return unhooked()
  for (let attempt = 1; ; attempt++) {
    let old: KubeObject | undefined
    if (call.op !== 'create') {
      const got = await storeFor(env, def).get(t)
      if (got.ok) old = JSON.parse(got.value) as KubeObject
      // A missing object: the write answers 404 itself, or (an apply) creates it.
      else if (call.op === 'delete' || got.status.code !== 404) return unhooked()
    }
    const attributes = attributesOf(call.op === 'delete' ? 'DELETE' : old ? 'UPDATE' : 'CREATE')
    const hooksNow = named.filter((h) => rulesMatch(h.hook, attributes))
    const policiesNow = namedPolicies.filter((p) => policyMayApply(p, attributes))
    if (!hooksNow.length && !policiesNow.length) return unhooked()
    const result = await admitOnce(
      call,
      write,
      { hooks: hooksNow, policies: policiesNow },
      attributes,
      namespace,
      old,
    )
    if (
      result.ok ||
      result.status.code !== 409 ||
      call.op === 'create' ||
      attempt >= admissionAttempts
    )
      return result
  }
}

async function admitOnce(
  call: WriteCall,
  write: Write,
  { hooks, policies }: { hooks: ConfiguredWebhook[]; policies: ConfiguredPolicy[] },
  attributes: RuleAttributes,
  namespace: KubeObject | undefined,
  old: KubeObject | undefined,
): Promise<StoreResult<WriteResult>> {
  const namespaceLabels = namespace ? (namespace.metadata.labels ?? {}) : undefined
  // Under a guard, an apply that creates is made only while nothing is stored (see ../guarded-write).
  const resourceVersion =
    old?.metadata.resourceVersion ?? (call.guard && call.op !== 'create' ? '' : undefined)
  const base: Omit<ReviewRequest, 'object'> = {
    attributes,
    kind:
      call.subresource === 'scale'
        ? { group: 'autoscaling', version: 'v1', kind: 'Scale' }
        : { group: call.def.group, version: call.def.version, kind: call.def.kind },
    name: call.t.name,
    oldObject: old,
    dryRun: call.dryRun,
    options: { apiVersion: 'meta.k8s.io/v1', ...call.options },
    user: call.user,
  }
  const warnings: string[] = []
  const applies = (h: ConfiguredWebhook, object: KubeObject | undefined) =>
    selectorsMatch(h.hook, attributes, namespaceLabels, object, old)

  // ValidatingAdmissionPolicy runs before the validating webhooks, as in kube-apiserver's plugin order.
  const byPolicy = (object: KubeObject | undefined) =>
    enforcePolicies(
      call.env,
      policies,
      {
        attributes,
        kind: base.kind,
        name: base.name,
        object,
        oldObject: old,
        namespace,
        user: call.user,
        dryRun: call.dryRun,
        options: base.options,
      },
      warnings,
    )

  if (attributes.operation === 'DELETE') {
    const denied = policies.length ? await byPolicy(undefined) : undefined
    if (denied) return { ok: false, status: denied }
    const refused = await validate(call.env, hooks, base, undefined, applies, warnings)
    if (refused) return refused
    return withWarnings(await write({}), warnings)
  }

  const dry = await write({ dryRun: true, admission: { resourceVersion } })
  if (!dry.ok) return dry
  let object = JSON.parse(dry.value.object) as KubeObject
  // A create's name is the object's (generated ones included); the URL names none.
  base.name = object.metadata.name ?? base.name
  const mutated = await mutate(call, hooks, base, object, applies, warnings)
  if (!mutated.ok) return mutated
  const patch = mutated.value.patch
  if (patch.length) {
    if (call.subresource === 'scale')
      return {
        ok: false,
        status: failure(
          500,
          'InternalError',
          'Internal error occurred: mutating admission webhooks may not change the scale subresource',
        ),
      }
    const again = await write({ dryRun: true, admission: { patch, resourceVersion } })
    if (!again.ok) return again
    object = JSON.parse(again.value.object) as KubeObject
  }
  // The guard sees the object as mutated, before validation, as upstream's escalation check.
  const guarded = call.guard ? await call.guard(object, old) : undefined
  if (guarded) return { ok: false, status: guarded }
  const denied = policies.length ? await byPolicy(object) : undefined
  if (denied) return { ok: false, status: denied }
  const refused = await validate(call.env, hooks, base, object, applies, warnings)
  if (refused) return refused
  return withWarnings(await write({ admission: { patch, resourceVersion } }), warnings)
}

/** The mutating webhooks in order, each shown the object as the ones before it left it. */
async function mutate(
  call: WriteCall,
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
    const outcome = await review(call.env, h.hook, true, { ...base, object })
    if ('skipped' in outcome || 'refused' in outcome)
      return 'refused' in outcome ? outcome.refused : undefined
    if ('error' in outcome)
      return h.hook.failurePolicy === 'Ignore' ? undefined : callFailure(h.hook.name, outcome.error)
    warnings.push(...outcome.warnings)
    if (!outcome.allowed) return denial(h.hook.name, outcome.status)
    calledAt.set(h, patch.length)
    if (!outcome.patch?.length) return undefined
    const next = applyPatch(call.def, 'json', object, outcome.patch)
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
async function validate(
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

function withWarnings(
  result: StoreResult<WriteResult>,
  warnings: string[],
): StoreResult<WriteResult> {
  if (!result.ok || !warnings.length) return result
  return { ...result, warnings: [...warnings, ...(result.warnings ?? [])] }
}

const namespacesDef = findResource('', 'v1', 'namespaces')!

/** How long a namespace is taken as read: upstream's admission reads namespaces from an informer, as stale. */
const namespaceTtlMs = 1000

function recentNamespace(env: AdmissionBindings, name: string): Promise<KubeObject | undefined> {
  return recentObject(env, namespacesDef, undefined, name, namespaceTtlMs)
}

function writeOptionsOf(opts: WriteOptions): Record<string, unknown> {
  return {
    ...(opts.fieldManager ? { fieldManager: opts.fieldManager } : {}),
    ...(opts.dryRun ? { dryRun: ['All'] } : {}),
  }
}

function deleteOptionsOf(opts: DeleteOptions): Record<string, unknown> {
  return {
    ...(opts.gracePeriodSeconds !== undefined
      ? { gracePeriodSeconds: opts.gracePeriodSeconds }
      : {}),
    ...(opts.propagationPolicy ? { propagationPolicy: opts.propagationPolicy } : {}),
    ...(opts.preconditions ? { preconditions: opts.preconditions } : {}),
    ...(opts.dryRun ? { dryRun: ['All'] } : {}),
  }
}
