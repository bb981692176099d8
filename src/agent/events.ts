/**
 * Events about a pod's containers, as the kubelet's event recorder writes them (source kubelet
 * on this host, the container named by fieldPath), so `kubectl describe pod` shows them.
 */
import { randomBytes } from 'node:crypto'
import type { KubeObject } from '../apimachinery/types'
import { formatTime } from '../apimachinery/meta-time'

export type EventType = 'Normal' | 'Warning'

/** Records one event about a pod (or one of its containers); never throws. */
export type PodEventRecorder = (
  pod: KubeObject,
  container: string | undefined,
  type: EventType,
  reason: string,
  message: string,
) => void

/** The core/v1 Event for one occurrence. */
export function podEvent(
  node: string,
  pod: KubeObject,
  container: string | undefined,
  type: EventType,
  reason: string,
  message: string,
  now: number,
  init = false,
): KubeObject {
  const at = formatTime(now)
  const involved: Record<string, unknown> = {
    kind: 'Pod',
    namespace: pod.metadata.namespace,
    name: pod.metadata.name,
    uid: pod.metadata.uid,
    apiVersion: 'v1',
    resourceVersion: pod.metadata.resourceVersion,
  }
  if (container) involved.fieldPath = `spec.${init ? 'initContainers' : 'containers'}{${container}}`
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: {
      name: `${pod.metadata.name}.${now.toString(16)}${randomBytes(3).toString('hex')}`,
      namespace: pod.metadata.namespace ?? 'default',
    },
    involvedObject: involved,
    reason,
    message,
    source: { component: 'kubelet', host: node },
    firstTimestamp: at,
    lastTimestamp: at,
    count: 1,
    type,
    eventTime: null,
    reportingComponent: 'kubelet',
    reportingInstance: node,
  }
}

/** A recorder posting through the API; a failed post is logged, never retried (events are best effort). */
export function apiEventRecorder(
  node: string,
  create: (path: string, body: KubeObject) => Promise<unknown>,
  warn: (m: string) => void,
): PodEventRecorder {
  return (pod, container, type, reason, message) => {
    const init = (
      (pod.spec as { initContainers?: { name: string }[] } | undefined)?.initContainers ?? []
    ).some((c) => c.name === container)
    const event = podEvent(node, pod, container, type, reason, message, Date.now(), init)
    create(`/api/v1/namespaces/${event.metadata.namespace}/events`, event).catch((err: Error) =>
      warn(
        `recording event ${reason} for pod ${pod.metadata.namespace}/${pod.metadata.name} failed: ${err.message}`,
      ),
    )
  }
}
