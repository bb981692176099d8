/**
 * The service environment variables kubelet gives every container: for each Service with a
 * cluster IP in the pod's namespace (when `enableServiceLinks` is not false) and for the
 * `kubernetes` Service of `default` (always), `<NAME>_SERVICE_HOST`, `<NAME>_SERVICE_PORT`,
 * `<NAME>_SERVICE_PORT_<PORT NAME>` and the Docker link variables `<NAME>_PORT`,
 * `<NAME>_PORT_<port>_<PROTO>[_PROTO|_PORT|_ADDR]`.
 */
import type { KubeObject } from '../apimachinery/types'

interface ServicePort {
  name?: string
  port: number
  protocol?: string
}

interface ServiceSpec {
  clusterIP?: string
  ports?: ServicePort[]
}

const masterNamespace = 'default'
const masterServices = new Set(['kubernetes'])

/** The Services whose variables a pod in `namespace` gets, from the Services of its namespace and of `default`. */
export function linkedServices(
  namespace: string,
  enableServiceLinks: boolean,
  services: KubeObject[],
): KubeObject[] {
  const chosen = new Map<string, KubeObject>()
  for (const svc of services) {
    if (!hasClusterIP(svc)) continue
    const name = svc.metadata.name ?? ''
    if (svc.metadata.namespace === masterNamespace && masterServices.has(name)) {
      if (!chosen.has(name)) chosen.set(name, svc)
    } else if (svc.metadata.namespace === namespace && enableServiceLinks) chosen.set(name, svc)
  }
  return [...chosen.values()]
}

/** The variables of the given Services, as kubelet's envvars.FromServices writes them. */
export function serviceEnv(services: KubeObject[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (const svc of services) {
    const spec = (svc.spec ?? {}) as ServiceSpec
    const ports = spec.ports ?? []
    const ip = spec.clusterIP!
    const prefix = envName(svc.metadata.name ?? '')
    out[`${prefix}_SERVICE_HOST`] = ip
    if (ports.length === 0) continue
    out[`${prefix}_SERVICE_PORT`] = String(ports[0]!.port)
    for (const p of ports)
      if (p.name) out[`${prefix}_SERVICE_PORT_${envName(p.name)}`] = String(p.port)
    ports.forEach((p, i) => {
      const proto = (p.protocol || 'TCP').toUpperCase()
      const url = `${proto.toLowerCase()}://${hostPort(ip, p.port)}`
      if (i === 0) out[`${prefix}_PORT`] = url
      const portPrefix = `${prefix}_PORT_${p.port}_${proto}`
      out[portPrefix] = url
      out[`${portPrefix}_PROTO`] = proto.toLowerCase()
      out[`${portPrefix}_PORT`] = String(p.port)
      out[`${portPrefix}_ADDR`] = ip
    })
  }
  return out
}

function hasClusterIP(svc: KubeObject): boolean {
  const ip = ((svc.spec ?? {}) as ServiceSpec).clusterIP
  return !!ip && ip !== 'None'
}

function envName(name: string): string {
  return name.toUpperCase().replace(/-/g, '_')
}

function hostPort(ip: string, port: number): string {
  return ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`
}
