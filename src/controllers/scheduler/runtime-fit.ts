import type { KubeObject } from '../../apimachinery/types'
import type { Rejection } from './rejection'
import { podSpec } from './pods'
import { RUNTIME_LABEL } from '../../agent-protocol/runtime-label'

export const REASON_RUNTIME =
  "node(s) run containers as processes and can't run the pod's image-only containers (no command)"

/**
 * A `process` node runs each container's command on the host and ignores images, so a pod with
 * a container that has no command (the image's own entrypoint) cannot run there. Nodes of
 * other runtimes, and nodes that advertise none, take any pod.
 */
export function checkNodeRuntime(pod: KubeObject, node: KubeObject): Rejection | undefined {
  if (node.metadata.labels?.[RUNTIME_LABEL] !== 'process') return undefined
  const spec = podSpec(pod) as { containers?: unknown; initContainers?: unknown }
  const containers = [spec.initContainers, spec.containers].flatMap((list) =>
    Array.isArray(list) ? (list as { command?: unknown }[]) : [],
  )
  const imageOnly = containers.some((c) => !Array.isArray(c?.command) || c.command.length === 0)
  return imageOnly ? { reasons: [REASON_RUNTIME], resolvable: false } : undefined
}
