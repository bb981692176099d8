import type { KubeObject } from '../../apimachinery/types'
import { asRecord, type Json } from '../../apimachinery/json-value'

/** A service port as the endpoint controllers read it. */
export interface ServicePort {
  name?: string
  protocol: string
  port: number
  targetPort: number | string
  appProtocol?: string
}

export function servicePorts(svc: KubeObject): ServicePort[] {
  const ports = asRecord(svc.spec).ports
  if (!Array.isArray(ports)) return []
  return ports.map((raw) => {
    const p = asRecord(raw)
    const port = typeof p.port === 'number' ? p.port : 0
    const target = p.targetPort
    const out: ServicePort = {
      protocol: typeof p.protocol === 'string' && p.protocol ? p.protocol : 'TCP',
      port,
      targetPort:
        typeof target === 'number' && target > 0
          ? target
          : typeof target === 'string' && target
            ? target
            : port,
    }
    if (typeof p.name === 'string' && p.name) out.name = p.name
    if (typeof p.appProtocol === 'string') out.appProtocol = p.appProtocol
    return out
  })
}

/**
 * podutil.FindPort: a numeric targetPort is used as is; a named one is the containerPort of that
 * name and the service port's protocol, in the containers (then restartable init containers).
 * Undefined when the pod has no such port, and the pod then gets no address for this port.
 */
export function findPort(pod: KubeObject, port: ServicePort): number | undefined {
  if (typeof port.targetPort === 'number') return port.targetPort
  const spec = asRecord(pod.spec)
  const sidecars = (
    Array.isArray(spec.initContainers) ? (spec.initContainers as Json[]) : []
  ).filter((c) => asRecord(c).restartPolicy === 'Always')
  const containers = [
    ...(Array.isArray(spec.containers) ? (spec.containers as Json[]) : []),
    ...sidecars,
  ]
  for (const c of containers) {
    for (const raw of Array.isArray(asRecord(c).ports) ? (asRecord(c).ports as unknown[]) : []) {
      const p = asRecord(raw)
      if (
        p.name === port.targetPort &&
        (p.protocol ?? 'TCP') === port.protocol &&
        typeof p.containerPort === 'number'
      )
        return p.containerPort
    }
  }
  return undefined
}
