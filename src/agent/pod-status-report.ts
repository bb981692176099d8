/** A pod's status, computed from the runtime's view of its containers and posted to the API. */
import type { KubeObject } from '../apimachinery/types'
import { isNotFound, resourcePath, type ApiClient } from './api-client'
import type { Logger } from './log'
import type { NodeIdentity } from './node-status'
import { computePodStatus, statusPatch, type PodStatus } from './pod-status'
import type { ManagedRuntime } from './runtime/types'

/**
 * resourceVersions are opaque, but this server's are integers: a response older than the cache
 * must not replace it.
 */
export function isNewer(candidate: KubeObject, cached: KubeObject | undefined): boolean {
  if (!cached) return true
  const a = Number(candidate.metadata.resourceVersion)
  const b = Number(cached.metadata.resourceVersion)
  if (!Number.isFinite(a) || !Number.isFinite(b)) return true
  return a > b
}

/** A pod's path, or one of its subresources'. */
export function podPath(pod: KubeObject, subresource?: string): string {
  return resourcePath({
    namespace: pod.metadata.namespace ?? 'default',
    resource: 'pods',
    name: pod.metadata.name ?? '',
    subresource,
  })
}

export class PodStatusReporter {
  constructor(
    private readonly api: ApiClient,
    private readonly runtime: ManagedRuntime,
    private readonly identity: NodeIdentity,
    private readonly log: Logger,
    /** the pods bound to the node, by uid: a newer object from a patch replaces the cached one */
    private readonly pods: Map<string, KubeObject>,
    /** pods whose containers have all been stopped */
    private readonly stopped: ReadonlySet<string>,
  ) {}

  /** Posts the pod's status as the runtime sees it, when it changed. */
  async report(pod: KubeObject): Promise<void> {
    const uid = pod.metadata.uid ?? ''
    // A pod whose containers are being taken over after a restart keeps the status it has until they are.
    if (this.runtime.adopting?.(uid)) return
    const containers = this.runtime.status(uid)
    const status = computePodStatus({
      pod,
      containers,
      hostIP: this.identity.internalIP,
      podIP: containers ? this.runtime.podIP(pod) : undefined,
      terminated: !!pod.metadata.deletionTimestamp && this.stopped.has(uid),
      now: Date.now(),
    })
    const patch = statusPatch(pod.status as PodStatus | undefined, status)
    if (!patch) return
    await this.patch(pod, patch)
  }

  /** Merge-patches the pod's status; a pod gone meanwhile is left alone. */
  async patch(pod: KubeObject, patch: Partial<PodStatus>): Promise<void> {
    const uid = pod.metadata.uid ?? ''
    try {
      const updated = await this.api.mergePatch(podPath(pod, 'status'), {
        metadata: { uid },
        status: patch,
      })
      const phase = (patch as { phase?: string }).phase
      if (phase && phase !== (pod.status as { phase?: string } | undefined)?.phase)
        this.log.info(`pod ${pod.metadata.namespace}/${pod.metadata.name} is ${phase}`)
      if (
        updated.metadata.uid === uid &&
        this.pods.has(uid) &&
        isNewer(updated, this.pods.get(uid))
      )
        this.pods.set(uid, updated)
    } catch (err) {
      if (isNotFound(err)) return
      throw err
    }
  }
}
