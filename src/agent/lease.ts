/** The node heartbeat: the Lease `kube-node-lease/<node>`, renewed on a fixed interval. */
import type { KubeObject } from '../apimachinery/types'
import { isAlreadyExists, isNotFound, resourcePath, type ApiClient } from './api-client'
import { LEASE_RETRY, RetryBackoff } from './runtime/backoff'
import type { Logger } from './log'

export const LEASE_NAMESPACE = 'kube-node-lease'
export const LEASE_DURATION_SECONDS = 40

/** metav1.MicroTime: RFC 3339 with exactly six fractional digits. */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z')
}

/** The Lease as kubelet writes it, owned by its Node so it goes when the Node does. */
export function leaseObject(nodeName: string, nodeUid: string | undefined, now: number, durationSeconds = LEASE_DURATION_SECONDS): KubeObject {
  const metadata: KubeObject['metadata'] = { name: nodeName, namespace: LEASE_NAMESPACE }
  if (nodeUid) metadata.ownerReferences = [{ apiVersion: 'v1', kind: 'Node', name: nodeName, uid: nodeUid }]
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata,
    spec: { holderIdentity: nodeName, leaseDurationSeconds: durationSeconds, renewTime: microTime(now) },
  }
}

export class LeaseRenewer {
  private timer: NodeJS.Timeout | undefined
  private stopped = true
  private readonly backoff = new RetryBackoff(LEASE_RETRY)
  private failing = false
  /** when the last renewal succeeded */
  lastRenewMs: number | undefined

  constructor(
    private readonly api: ApiClient,
    private readonly nodeName: string,
    private readonly intervalMs: number,
    private readonly log: Logger,
    private readonly nodeUid: () => string | undefined,
  ) {}

  private get path(): string {
    return resourcePath({ group: 'coordination.k8s.io', namespace: LEASE_NAMESPACE, resource: 'leases', name: this.nodeName })
  }

  start(): void {
    if (!this.stopped) return
    this.stopped = false
    void this.tick()
  }

  stop(): void {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
  }

  /** One renewal: patch the renew time, or create the Lease when it does not exist. */
  async renew(now = Date.now()): Promise<void> {
    const lease = leaseObject(this.nodeName, this.nodeUid(), now)
    try {
      await this.api.mergePatch(this.path, { spec: lease.spec })
    } catch (err) {
      if (!isNotFound(err)) throw err
      try {
        await this.api.create(resourcePath({ group: 'coordination.k8s.io', namespace: LEASE_NAMESPACE, resource: 'leases' }), lease)
      } catch (createErr) {
        // Created meanwhile (a previous attempt whose answer was lost): the next tick patches it.
        if (!isAlreadyExists(createErr)) throw createErr
      }
    }
    this.lastRenewMs = now
  }

  private async tick(): Promise<void> {
    if (this.stopped) return
    let delay = this.intervalMs
    try {
      await this.renew()
      if (this.failing) this.log.info(`lease ${LEASE_NAMESPACE}/${this.nodeName} renewed again`)
      this.failing = false
      this.backoff.reset()
    } catch (err) {
      delay = Math.min(this.intervalMs, this.backoff.next())
      if (!this.failing || this.backoff.attempts % 10 === 0) this.log.warn(`lease ${LEASE_NAMESPACE}/${this.nodeName} renewal failed (retrying in ${delay} ms): ${(err as Error).message}`)
      this.failing = true
    }
    if (!this.stopped) this.timer = setTimeout(() => void this.tick(), delay)
  }
}
