/**
 * Pod Security admission on the writes that carry it, the API's and the controllers' alike:
 * creates and updates of pods (and pods/ephemeralcontainers), of the pod-template kinds, and of
 * namespaces. A write it has nothing to say about costs one look at its namespace's labels; one it
 * evaluates is judged on the object as it would be stored (a create's body as admitted so far, an
 * update's dry run), and made only if allowed, with its warnings added to the answer. A pod created
 * with `spec.nodeName` is also held to the process-node rule (./process-node).
 */
import type { AdmissionBindings } from '../bindings'
import type { KubeObject } from '../../apimachinery/types'
import { ApiError, type StoreResult } from '../../apimachinery/status'
import type { UserInfo } from '../../apimachinery/user-info'
import { findResource } from '../../apis/registry'
import type { ResourceDef } from '../../apis/resource-def'
import { applyPatch } from '../../apis/patching'
import { nameSuffix } from '../../apis/strategy'
import type { Target, WriteOptions, WriteResult } from '../../apis/store-options'
import { policyToEvaluate, type LevelVersion } from '../../apis/pod-security/levels'
import type { PodSecuritySettings } from '../../apis/pod-security/settings'
import { storeFor } from '../../store-client/stores'
import { guardedWrite } from '../guarded-write'
import { listPages } from '../../store-client/list-pages'
import {
  podSecurityNamespaceMaxPodsToCheck,
  podSecurityNamespacePodCheckTimeoutMs,
} from '../../config'
import { podSecuritySettings } from './config'
import {
  evaluates,
  exemptNamespace,
  exemptUser,
  validateNamespace,
  validatePodLike,
  type Verdict,
} from './decide'
import { existingPodWarnings } from './namespace-pods'
import { forgetNamespace, namespaceLabels } from './namespace-lookup'
import { isNamespaceResource, isPodResource, isPodTemplateResource } from './pod-spec'
import { processNodeRefusal } from './process-node'
import { configuredWebhooks } from '../webhooks/configurations'
import { rulesMatch } from '../webhooks/match'

type Step = Pick<WriteOptions, 'dryRun' | 'admission'>
type Write = (step: Step) => Promise<StoreResult<WriteResult>>

/** One write, as admission sees it. */
export interface SecuredWrite {
  env: AdmissionBindings
  def: ResourceDef
  user: UserInfo
  t: Target
  subresource: string | undefined
  op: 'create' | 'update' | 'delete'
  /** the request is a dry run */
  dryRun: boolean
  /** a create's object */
  body?: KubeObject
}

const podsDef = findResource('', 'v1', 'pods')!

/** What Pod Security admits of a write: a pod, a pod template, a namespace, or nothing. */
function subjectOf(
  def: ResourceDef,
  subresource: string | undefined,
): 'pod' | 'template' | 'namespace' | undefined {
  if (isPodResource(def.group, def.plural))
    return subresource === undefined || subresource === 'ephemeralcontainers' ? 'pod' : undefined
  if (subresource !== undefined) return undefined
  if (isPodTemplateResource(def.group, def.plural)) return 'template'
  return isNamespaceResource(def.group, def.plural) ? 'namespace' : undefined
}

/**
 * The write with Pod Security admission before it: `write` itself when the write is nothing
 * Pod Security admits. Its own dry runs (admission's trials) pass untouched.
 */
export function withPodSecurity(call: SecuredWrite, write: Write): Write {
  const subject = subjectOf(call.def, call.subresource)
  if (!subject || call.op === 'delete') return write
  return async (step) => {
    if (step.dryRun) return write(step)
    const { settings, refused } = podSecuritySettings(call.env)
    if (refused) return { ok: false, status: refused }
    if (subject === 'namespace') return admitNamespace(call, settings, step, write)
    const namespace = call.t.namespace ?? ''
    if (subject === 'pod' && call.op === 'create' && call.body) {
      // The pod as the mutating webhooks left it; an exempt user is held to this rule too.
      const onNode = await processNodeRefusal(call.env, settings, asCreated(call, step), namespace)
      if (onNode) return { ok: false, status: onNode }
    }
    const enforce = subject === 'pod'
    if (exemptNamespace(settings, namespace) || exemptUser(settings, call.user.username))
      return write(step)
    const labels = await namespaceLabels(call.env, namespace)
    if (labels === null || !evaluates(policyToEvaluate(labels, settings.defaults).policy, enforce))
      return write(step)
    const request = {
      group: call.def.group,
      plural: call.def.plural,
      namespace,
      username: call.user.username,
      labels,
    }
    return admitJudged(call, step, write, (object, old) =>
      validatePodLike(
        settings,
        { ...request, name: object.metadata.name ?? call.t.name, object, old },
        enforce,
      ),
    )
  }
}

/**
 * A pod's create, refused before quota charges it (kube-apiserver runs PodSecurity before
 * ResourceQuota): the enforce level and the process-node rule only; its warnings come with the
 * write (withPodSecurity). A pod a mutating webhook may still change is judged only once it has
 * (withPodSecurity), as upstream judges the mutated pod.
 */
export async function admitPodSecurityOnCreate(
  env: AdmissionBindings,
  target: Target,
  body: KubeObject,
  username: string,
): Promise<void> {
  if (!isPodResource(target.def.group, target.def.plural)) return
  const { settings, refused } = podSecuritySettings(env)
  if (refused) throw new ApiError(refused)
  const namespace = target.namespace ?? ''
  const onNode = await processNodeRefusal(env, settings, body, namespace)
  if (onNode && !(await mayBeMutated(env, target))) throw new ApiError(onNode)
  if (exemptNamespace(settings, namespace) || exemptUser(settings, username)) return
  const labels = await namespaceLabels(env, namespace)
  if (
    labels === null ||
    policyToEvaluate(labels, settings.defaults).policy.enforce.level === 'privileged'
  )
    return
  const verdict = validatePodLike(
    settings,
    { group: '', plural: 'pods', name: nameOf(body), namespace, username, labels, object: body },
    true,
  )
  if (verdict.refused && !(await mayBeMutated(env, target))) throw new ApiError(verdict.refused)
}

/** Whether a mutating webhook's rules name this create. */
async function mayBeMutated(env: AdmissionBindings, target: Target): Promise<boolean> {
  const { def } = target
  const attributes = {
    operation: 'CREATE' as const,
    group: def.group,
    version: def.version,
    resource: def.plural,
    subresource: '',
    namespaced: def.namespaced,
    namespace: target.namespace ?? '',
  }
  return (await configuredWebhooks(env)).some((h) => h.mutating && rulesMatch(h.hook, attributes))
}

/** The name a refusal gives a create: its own, or one its generateName would draw (kube-apiserver names before admission). */
const nameOf = (o: KubeObject): string =>
  o.metadata.name || (o.metadata.generateName ? `${o.metadata.generateName}${nameSuffix()}` : '')

function admitNamespace(
  call: SecuredWrite,
  settings: PodSecuritySettings,
  step: Step,
  write: Write,
): Promise<StoreResult<WriteResult>> {
  return admitJudged(call, step, write, async (object, old) => {
    const decision = validateNamespace(settings, object, old)
    if ('verdict' in decision) return decision.verdict
    return {
      warnings: await existingPodsChecked(
        call.env,
        settings,
        object.metadata.name ?? '',
        decision.checkPods,
      ),
    }
  }).then((res) => {
    if (!call.dryRun) forgetNamespace(call.t.name)
    return res
  })
}

async function existingPodsChecked(
  env: AdmissionBindings,
  settings: PodSecuritySettings,
  namespace: string,
  enforce: LevelVersion,
): Promise<string[]> {
  const deadline = Date.now() + podSecurityNamespacePodCheckTimeoutMs
  const pods: KubeObject[] = []
  try {
    for await (const page of listPages(env, podsDef, { namespace }))
      for (const text of page.items) pods.push(JSON.parse(text) as KubeObject)
  } catch {
    return ['failed to list pods while checking new PodSecurity enforce level']
  }
  return existingPodWarnings(settings, namespace, enforce, pods, {
    maxPods: podSecurityNamespaceMaxPodsToCheck,
    deadline,
    now: Date.now,
  })
}

type Judge = (object: KubeObject, old: KubeObject | undefined) => Verdict | Promise<Verdict>

/**
 * The write, made only if `judge` allows the object it would store. A create is judged on its body
 * (with the mutating webhooks' patch); an update (or an apply, which may create) is a guarded write
 * (../guarded-write): judged on its own dry run against the object it replaces, and made only from
 * the version judged (an apply that creates: only while nothing is stored), else judged again.
 */
async function admitJudged(
  call: SecuredWrite,
  step: Step,
  write: Write,
  judge: Judge,
): Promise<StoreResult<WriteResult>> {
  if (call.op === 'create' && call.body) {
    const verdict = await judge(asCreated(call, step), undefined)
    return verdict.refused
      ? { ok: false, status: verdict.refused }
      : withWarnings(await write(step), verdict.warnings)
  }
  // The version admission was shown before this (the webhooks'), when there was one, stays the condition.
  const shown = step.admission?.resourceVersion
  const at = (s: Step): Step => ({
    ...step,
    dryRun: s.dryRun,
    admission: { ...step.admission, resourceVersion: shown ?? s.admission?.resourceVersion },
  })
  let warnings: string[] = []
  const res = await guardedWrite(
    async (object, old) => {
      const verdict = await judge(object, old)
      warnings = verdict.warnings
      return verdict.refused
    },
    call.dryRun,
    (s) => write(at(s)),
    () => storeFor(call.env, call.def).get(call.t),
  )
  return withWarnings(res, warnings)
}

/** A create's object as it will be stored: its body, with the mutating webhooks' patch, named. */
function asCreated(call: SecuredWrite, step: Step): KubeObject {
  const body = call.body!
  const patch = step.admission?.patch
  const patched = patch?.length ? applyPatch(call.def, 'json', body, patch) : undefined
  const object = patched?.ok ? patched.value : body
  return { ...object, metadata: { ...object.metadata, name: nameOf(object) } }
}

function withWarnings(
  result: StoreResult<WriteResult>,
  warnings: string[],
): StoreResult<WriteResult> {
  if (!result.ok || !warnings.length) return result
  return { ...result, warnings: [...warnings, ...(result.warnings ?? [])] }
}
