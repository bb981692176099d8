/**
 * Pod Security admission's decisions (k8s.io/pod-security-admission/admission), pure: given the
 * write, its namespace's labels and the cluster settings, whether it is refused and what it warns.
 * A pod is refused for violating its namespace's enforce level and warned about its warn level; a
 * pod-template kind is only warned about. Audit levels are parsed but record nothing: there is no
 * audit log to annotate.
 */
import type { KubeObject, Status } from '../../apimachinery/types'
import { goQuote } from '../../apimachinery/go-format'
import { invalid as invalidStatus } from '../../apimachinery/status'
import { toStatusCause, type FieldCause } from '../../apimachinery/field-errors'
import type { Json } from '../../apimachinery/json-value'
import {
  compareLevels,
  equivalentPolicies,
  fullyPrivileged,
  levelVersionString,
  policyToEvaluate,
  sameLevelVersion,
  type LevelVersion,
  type Policy,
} from '../../apis/pod-security/levels'
import type { PodSecuritySettings } from '../../apis/pod-security/settings'
import { admissionForbidden } from '../forbidden'
import { checkPod, forbiddenDetail } from './evaluate'
import { isSignificantPodUpdate, podOf } from './pod-spec'

export interface Verdict {
  refused?: Status
  warnings: string[]
}

export const allowedVerdict = (): Verdict => ({ warnings: [] })

export const exemptNamespace = (s: PodSecuritySettings, namespace: string): boolean =>
  namespace !== '' && s.exemptions.namespaces.includes(namespace)

export const exemptUser = (s: PodSecuritySettings, username: string): boolean =>
  username !== '' && s.exemptions.usernames.includes(username)

export function exemptRuntimeClass(s: PodSecuritySettings, spec: Json): boolean {
  const name = spec.runtimeClassName
  return typeof name === 'string' && name !== '' && s.exemptions.runtimeClasses.includes(name)
}

/** Whether a write of this kind in a namespace of this policy can be refused or warned about at all. */
export function evaluates(policy: Policy, enforce: boolean): boolean {
  return (enforce && policy.enforce.level !== 'privileged') || policy.warn.level !== 'privileged'
}

/** What admits one pod-like object: the request around it. */
export interface PodRequest {
  /** the pod or the template kind's group and resource */
  group: string
  plural: string
  /** the name refusals name */
  name: string
  namespace: string
  username: string
  object: KubeObject
  /** an update's stored object (pods: only an update that changes images or ephemeral containers is evaluated) */
  old?: KubeObject
  /** the namespace's labels */
  labels: Record<string, string> | undefined
}

/**
 * ValidatePod (enforce: true) and ValidatePodController (enforce: false): the enforce level refuses
 * with 403 `violates PodSecurity "<level:version>": …`, and a pod that passes is warned about its
 * warn level with `would violate PodSecurity …`.
 */
export function validatePodLike(s: PodSecuritySettings, r: PodRequest, enforce: boolean): Verdict {
  if (exemptNamespace(s, r.namespace) || exemptUser(s, r.username)) return allowedVerdict()
  const { policy } = policyToEvaluate(r.labels, s.defaults)
  if (!evaluates(policy, enforce)) return allowedVerdict()
  if (enforce && r.old && !isSignificantPodUpdate(r.object, r.old)) return allowedVerdict()
  const pod = podOf(r.group, r.plural, r.object)
  if (!pod || exemptRuntimeClass(s, pod.spec)) return allowedVerdict()
  if (enforce && policy.enforce.level !== 'privileged') {
    const result = checkPod(policy.enforce, pod.meta, pod.spec)
    if (!result.allowed)
      return {
        refused: admissionForbidden(
          { group: r.group, plural: r.plural },
          r.name,
          `violates PodSecurity ${goQuote(levelVersionString(policy.enforce))}: ${forbiddenDetail(result)}`,
        ),
        warnings: [],
      }
    if (sameLevelVersion(policy.warn, policy.enforce)) return allowedVerdict()
  }
  const warned = checkPod(policy.warn, pod.meta, pod.spec)
  return warned.allowed
    ? allowedVerdict()
    : {
        warnings: [
          `would violate PodSecurity ${goQuote(levelVersionString(policy.warn))}: ${forbiddenDetail(warned)}`,
        ],
      }
}

/**
 * exemptNamespaceWarning: an exempt namespace labelled with a policy stricter than privileged (and
 * not the cluster default) is told its labels do nothing.
 */
export function exemptNamespaceWarning(
  s: PodSecuritySettings,
  namespace: string,
  policy: Policy,
  labels: Record<string, string>,
): string | undefined {
  if (fullyPrivileged(policy) || equivalentPolicies(policy, s.defaults)) return undefined
  const has = (label: string) => Object.prototype.hasOwnProperty.call(labels, label)
  const parts = (['enforce', 'audit', 'warn'] as const)
    .filter(
      (m) =>
        policy[m].level !== 'privileged' &&
        (has(`pod-security.kubernetes.io/${m}`) || has(`pod-security.kubernetes.io/${m}-version`)),
    )
    .map((m) => `${m}=${levelVersionString(policy[m])}`)
  return `namespace ${goQuote(namespace)} is exempt from Pod Security, and the policy (${parts.join(', ')}) will be ignored`
}

/** What a namespace write comes to: a verdict, or the enforce level its existing pods are to be checked against. */
export type NamespaceDecision = { verdict: Verdict } | { checkPods: LevelVersion }

const errorKey = (e: { field: string; value?: unknown; message: string }) =>
  JSON.stringify([e.field, e.value, e.message])

/**
 * ValidateNamespace: labels must be valid on create, and on an update that changes the invalid
 * ones (422 Invalid naming each label); an update that tightens the enforce level has the
 * namespace's pods checked against it (unless the namespace is exempt).
 */
export function validateNamespace(
  s: PodSecuritySettings,
  namespace: KubeObject,
  old: KubeObject | undefined,
): NamespaceDecision {
  const name = namespace.metadata.name ?? ''
  const labels = namespace.metadata.labels ?? {}
  const next = policyToEvaluate(labels, s.defaults)
  const invalidLabels = (): NamespaceDecision => ({
    verdict: { refused: invalidNamespace(name, next.errors), warnings: [] },
  })
  const exemptWarning = (): NamespaceDecision => {
    const w = exemptNamespace(s, name)
      ? exemptNamespaceWarning(s, name, next.policy, labels)
      : undefined
    return { verdict: { warnings: w ? [w] : [] } }
  }
  if (!old) return next.errors.length ? invalidLabels() : exemptWarning()
  const before = policyToEvaluate(old.metadata.labels ?? {}, s.defaults)
  if (
    next.errors.length &&
    (!before.errors.length ||
      next.errors.map(errorKey).join() !== before.errors.map(errorKey).join())
  )
    return invalidLabels()
  const [now, was] = [next.policy.enforce, before.policy.enforce]
  if (sameLevelVersion(now, was) || now.level === 'privileged') return { verdict: allowedVerdict() }
  if (now.version === was.version && compareLevels(now.level, was.level) < 1)
    return { verdict: allowedVerdict() }
  if (exemptNamespace(s, name)) return exemptWarning()
  return { checkPods: now }
}

function invalidNamespace(name: string, errors: FieldCause[]): Status {
  return invalidStatus('', 'Namespace', name, errors.map(toStatusCause))
}
