/** core/v1 Pod: its strategy (upstream's podStrategy, podEphemeralContainersStrategy and BindingREST). */
import type { KubeObject } from '../../apimachinery/types'
import { conflict, type StoreResult } from '../../apimachinery/status'
import { formatTime } from '../../apimachinery/meta-time'
import { asRecord, type Json } from '../../apimachinery/json-value'
import type { KindStrategy } from '../kind-strategy'
import { keepPodPriority } from '../priority-class'
import { validatePod } from '../validation/core'
import {
  validateEphemeralOnCreate,
  validateEphemeralUpdate,
  withEphemeralContainers,
} from '../validation/ephemeral'

/** The pod's quality-of-service class, computed on create as kube-apiserver does. */
function podQosClass(pod: KubeObject): string {
  const spec = asRecord(pod.spec)
  const containers = [
    ...((spec.containers as Json[]) ?? []),
    ...((spec.initContainers as Json[]) ?? []),
  ]
  let any = false
  let guaranteed = true
  for (const c of containers) {
    const resources = asRecord(c.resources)
    const requests = asRecord(resources.requests)
    const limits = asRecord(resources.limits)
    if (Object.keys(requests).length || Object.keys(limits).length) any = true
    for (const r of ['cpu', 'memory']) {
      if (limits[r] === undefined) guaranteed = false
      else if (requests[r] !== undefined && String(requests[r]) !== String(limits[r]))
        guaranteed = false
    }
  }
  if (!any) return 'BestEffort'
  return guaranteed ? 'Guaranteed' : 'Burstable'
}

/** The DefaultTolerationSeconds admission plugin's tolerations, with kube-apiserver's 300 s defaults. */
const defaultTolerations = ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'].map(
  (key) => ({
    key,
    operator: 'Exists',
    effect: 'NoExecute',
    tolerationSeconds: 300,
  }),
)

/** Create-time admission defaults: a new pod tolerates unready and unreachable nodes for 5 minutes. */
function admitNewPod(obj: KubeObject): void {
  const spec = asRecord(obj.spec)
  if (!obj.spec) return
  const tolerations = Array.isArray(spec.tolerations) ? (spec.tolerations as Json[]) : []
  const covers = (key: string) =>
    tolerations.some(
      (t) =>
        (t.operator === 'Exists' && !t.key) ||
        (t.key === key && (!t.effect || t.effect === 'NoExecute')),
    )
  const added = defaultTolerations.filter((t) => !covers(t.key))
  if (added.length) spec.tolerations = [...tolerations, ...added]
}

/** POST pods/binding: spec.nodeName of an unbound pod set, and PodScheduled=True recorded. */
function bindPod(old: KubeObject, nodeName: string, nowMs: number): StoreResult<KubeObject> {
  const name = old.metadata.name ?? ''
  const spec = (old.spec ?? {}) as { nodeName?: string }
  if (spec.nodeName)
    return {
      ok: false,
      status: conflict(
        '',
        'pods',
        name,
        `pod ${name} is already assigned to node "${spec.nodeName}"`,
      ),
    }
  if (old.metadata.deletionTimestamp)
    return {
      ok: false,
      status: conflict(
        '',
        'pods',
        name,
        `pod ${name} is being deleted, cannot be assigned to a host`,
      ),
    }
  const status = { ...((old.status ?? {}) as Record<string, unknown>) }
  const conditions = ((status.conditions as { type: string }[] | undefined) ?? []).filter(
    (c) => c.type !== 'PodScheduled',
  )
  status.conditions = [
    ...conditions,
    {
      type: 'PodScheduled',
      status: 'True',
      lastProbeTime: null,
      lastTransitionTime: formatTime(nowMs),
    },
  ]
  return {
    ok: true,
    value: { ...old, spec: { ...spec, nodeName }, status, metadata: { ...old.metadata } },
  }
}

/** Pods bound to a node are deleted gracefully: the node's agent finishes the deletion. */
function podGracePeriod(obj: KubeObject, requested: number | undefined): number {
  const spec = (obj.spec ?? {}) as { nodeName?: string; terminationGracePeriodSeconds?: number }
  const phase = (obj.status as { phase?: string } | undefined)?.phase
  if (!spec.nodeName || phase === 'Succeeded' || phase === 'Failed') return 0
  const grace = requested ?? spec.terminationGracePeriodSeconds ?? 30
  return Math.max(0, grace)
}

export const podStrategy: KindStrategy = {
  podSpecs: (obj) => (obj.spec ? [asRecord(obj.spec)] : []),
  initialStatus: (obj) => ({ phase: 'Pending', qosClass: podQosClass(obj) }),
  prepareForCreate: (obj) => admitNewPod(obj),
  prepareForUpdate: (old, obj) => {
    keepPodPriority(old, obj)
    return obj
  },
  validate: validatePod,
  validateCreate: validateEphemeralOnCreate,
  subresources: {
    // pods/ephemeralcontainers writes spec.ephemeralContainers only.
    ephemeralcontainers: {
      prepareForUpdate: withEphemeralContainers,
      defaulted: true,
      validateUpdate: validateEphemeralUpdate,
    },
  },
  gracePeriod: podGracePeriod,
  bind: bindPod,
  nodeReferences: true,
}
