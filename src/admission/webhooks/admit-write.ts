/**
 * One write through admission. A write that no webhook's or policy's rules name costs one look at
 * this isolate's configurations. Otherwise the write is first made as a dry run, giving the object
 * as it would be stored; mutating webhooks are called in order with it, their JSON patches applied
 * one after another (a webhook with reinvocationPolicy IfNeeded is called once more when a later
 * one changed the object); the patched object is dry-run again, so the ValidatingAdmissionPolicies
 * (`../policies`) and then the validating webhooks, called together, see what would be stored; then
 * the write is made with the patches, and only if the object is still the version the webhooks
 * were shown (else the whole admission runs again, as upstream retries a conflicting update).
 */
import type { AdmissionBindings } from '../bindings'
import type { KubeObject } from '../../apimachinery/types'
import { failure, type StoreResult } from '../../apimachinery/status'
import { findResource } from '../../apis/registry'
import { admissionGroup } from '../../apis/resource-table/extensions'
import type { ResourceDef } from '../../apis/resource-def'
import { storeFor } from '../../store-client/stores'
import { recentObject } from '../../store-client/recent-objects'
import type { UserInfo } from '../../apimachinery/user-info'
import type { Target, WriteOptions, WriteResult } from '../../apis/store-options'
import { configuredWebhooks, type ConfiguredWebhook } from './configurations'
import {
  namespaceMatches,
  rulesMatch,
  selectorsMatch,
  type RuleAttributes,
  type Operation,
} from './match'
import type { ReviewRequest } from './review'
import { mutate, validate } from './webhook-calls'
import { configuredPolicies, type ConfiguredPolicy } from '../policies/configurations'
import { policyMayApply, policyMayApplyIn } from '../policies/match'
import { enforcePolicies } from '../policies/dispatch'
import { guardedWrite, type WriteGuard } from '../guarded-write'
import type { WriteSubresource } from '../../apis/write-subresource'

export type Step = Pick<WriteOptions, 'dryRun' | 'admission'>
export type Write = (step: Step) => Promise<StoreResult<WriteResult>>

/** How often a write whose object changed under its admission is admitted again. */
const admissionAttempts = 3

export interface WriteCall {
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

/** Makes the write through the admission webhooks and policies that apply to it. */
export async function admitWrite(call: WriteCall, write: Write): Promise<StoreResult<WriteResult>> {
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
  const mutated = await mutate(call.env, call.def, hooks, base, object, applies, warnings)
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
