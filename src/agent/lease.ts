/** The node heartbeat: the Lease `kube-node-lease/<node>`, renewed on a fixed interval. */
import type { KubeObject } from '../apimachinery/types'
import {
  ApiStatusError,
  isAlreadyExists,
  isNotFound,
  resourcePath,
  type ApiClient,
} from './api-client'
import { LEASE_RETRY, RetryBackoff } from './runtime/backoff'
import { HeartbeatStream, HeartbeatStreamLost } from './heartbeat-stream'
import type { Logger } from './log'
import {
  GRACE_PERIOD_KEY,
  NODE_SETTINGS_NAME,
  NODE_SETTINGS_NAMESPACE,
} from '../agent-protocol/node-settings'
import { microTime } from '../apimachinery/meta-time'

export const LEASE_NAMESPACE = 'kube-node-lease'
export const LEASE_DURATION_SECONDS = 40
/** kubelet's renewal interval: a quarter of the control plane's default 40 s grace period */
export const DEFAULT_LEASE_SECONDS = 10

/** An explicit --lease-seconds the control plane would take for a dead node. */
export class LeaseIntervalError extends Error {}

/**
 * How often to renew: never less often than a quarter of the control plane's node monitor grace
 * period (as kubelet's 10 s relates to its 40 s), so that a healthy node is never taken for a lost
 * one. An explicit interval slower than that is refused; without one the agent follows the grace
 * period, renewing every 10 s at most.
 */
export function leaseInterval(
  graceSeconds: number | undefined,
  explicitSeconds: number | undefined,
): number {
  const limit = graceSeconds === undefined ? undefined : graceSeconds / 4
  if (explicitSeconds === undefined)
    return limit === undefined ? DEFAULT_LEASE_SECONDS : Math.min(DEFAULT_LEASE_SECONDS, limit)
  if (limit !== undefined && explicitSeconds > limit) {
    throw new LeaseIntervalError(
      `--lease-seconds ${explicitSeconds} is too slow for the control plane: it marks a node Unknown after ${graceSeconds}s without a heartbeat, ` +
        `so the lease must be renewed at least every ${limit}s (a quarter of that); lower --lease-seconds or leave it out to follow the control plane`,
    )
  }
  return explicitSeconds
}

/**
 * The node monitor grace period the control plane publishes (in seconds), or undefined when it
 * publishes none (the agent then assumes upstream's 40 s). Retries until the API answers.
 */
export async function publishedGraceSeconds(
  api: ApiClient,
  log: Logger,
): Promise<number | undefined> {
  const path = resourcePath({
    namespace: NODE_SETTINGS_NAMESPACE,
    resource: 'configmaps',
    name: NODE_SETTINGS_NAME,
  })
  const backoff = new RetryBackoff(LEASE_RETRY)
  for (;;) {
    try {
      const cm = await api.getOptional<{ data?: Record<string, string> }>(path)
      const raw = cm?.data?.[GRACE_PERIOD_KEY]
      if (raw === undefined) return undefined
      const seconds = Number(raw)
      if (Number.isFinite(seconds) && seconds > 0) return seconds
      log.warn(
        `${NODE_SETTINGS_NAMESPACE}/${NODE_SETTINGS_NAME}: ${GRACE_PERIOD_KEY} "${raw}" is not a number of seconds; assuming 40`,
      )
      return undefined
    } catch (err) {
      // A refusal will not change by asking again: the agent goes on as with nothing published.
      if (err instanceof ApiStatusError && err.code >= 400 && err.code < 500) {
        log.warn(
          `cannot read ${NODE_SETTINGS_NAMESPACE}/${NODE_SETTINGS_NAME} (${err.message}); assuming a 40 s node monitor grace period`,
        )
        return undefined
      }
      const delay = backoff.next()
      if (backoff.attempts === 1 || backoff.attempts % 10 === 0)
        log.warn(
          `reading ${NODE_SETTINGS_NAMESPACE}/${NODE_SETTINGS_NAME} failed (retrying in ${delay} ms): ${(err as Error).message}`,
        )
      await new Promise((r) => setTimeout(r, delay))
    }
  }
}

/** The Lease as kubelet writes it, owned by its Node so it goes when the Node does. */
export function leaseObject(
  nodeName: string,
  nodeUid: string | undefined,
  now: number,
  durationSeconds = LEASE_DURATION_SECONDS,
): KubeObject {
  const metadata: KubeObject['metadata'] = { name: nodeName, namespace: LEASE_NAMESPACE }
  if (nodeUid)
    metadata.ownerReferences = [{ apiVersion: 'v1', kind: 'Node', name: nodeName, uid: nodeUid }]
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata,
    spec: {
      holderIdentity: nodeName,
      leaseDurationSeconds: durationSeconds,
      renewTime: microTime(now),
    },
  }
}

export class LeaseRenewer {
  private timer: NodeJS.Timeout | undefined
  private stopped = true
  private readonly backoff = new RetryBackoff(LEASE_RETRY)
  private failing = false
  /** when the last renewal succeeded */
  lastRenewMs: number | undefined

  private readonly stream: HeartbeatStream

  constructor(
    private readonly api: ApiClient,
    private readonly nodeName: string,
    /** how often to renew; the agent sets it from the published grace period before starting */
    public intervalMs: number,
    private readonly log: Logger,
    private readonly nodeUid: () => string | undefined,
  ) {
    this.stream = new HeartbeatStream(api, nodeName, log)
  }

  private get path(): string {
    return resourcePath({
      group: 'coordination.k8s.io',
      namespace: LEASE_NAMESPACE,
      resource: 'leases',
      name: this.nodeName,
    })
  }

  start(): void {
    if (!this.stopped) return
    this.stopped = false
    void this.tick()
  }

  stop(): void {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
    this.stream.stop()
  }

  /**
   * One renewal: over the heartbeat stream when it is open, otherwise (or when the stream is lost
   * meanwhile) a patch of the renew time; the Lease is created when it does not exist.
   */
  async renew(now = Date.now()): Promise<void> {
    const lease = leaseObject(this.nodeName, this.nodeUid(), now)
    const { renewTime, leaseDurationSeconds } = lease.spec as {
      renewTime: string
      leaseDurationSeconds: number
    }
    const streamed = this.stream.renew({ renewTime, leaseDurationSeconds })
    if (streamed)
      try {
        await streamed
        this.lastRenewMs = now
        return
      } catch (err) {
        if (!(err instanceof HeartbeatStreamLost) && !isNotFound(err)) throw err
      }
    try {
      await this.api.mergePatch(this.path, { spec: lease.spec })
    } catch (err) {
      if (!isNotFound(err)) throw err
      try {
        await this.api.create(
          resourcePath({
            group: 'coordination.k8s.io',
            namespace: LEASE_NAMESPACE,
            resource: 'leases',
          }),
          lease,
        )
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
      if (!this.failing || this.backoff.attempts % 10 === 0)
        this.log.warn(
          `lease ${LEASE_NAMESPACE}/${this.nodeName} renewal failed (retrying in ${delay} ms): ${(err as Error).message}`,
        )
      this.failing = true
    }
    if (!this.stopped) this.timer = setTimeout(() => void this.tick(), delay)
  }
}
