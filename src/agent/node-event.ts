import { randomBytes } from 'node:crypto'
import type { KubeObject } from '../apimachinery/types'
import { formatTime } from '../apimachinery/meta-time'

/** A Warning Event about the Node itself (namespace default, as kubelet records node events), for `kubectl describe node`. */
export function nodeWarning(
  node: string,
  component: string,
  reason: string,
  message: string,
  now: number,
): KubeObject {
  const at = formatTime(now)
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: {
      name: `${node}.${now.toString(16)}${randomBytes(3).toString('hex')}`,
      namespace: 'default',
    },
    involvedObject: { kind: 'Node', name: node, uid: node, apiVersion: 'v1' },
    reason,
    message,
    source: { component, host: node },
    firstTimestamp: at,
    lastTimestamp: at,
    count: 1,
    type: 'Warning',
    eventTime: null,
    reportingComponent: component,
    reportingInstance: node,
  }
}
