import { parseIPv4 } from '../apimachinery/cidr'

/** Where the API server listens: an IP and a port, when it has one clients can dial. */
export interface ApiEndpoint {
  ip: string
  port: number
}

/** `ip:port` (e.g. `127.0.0.1:8787`), as the launcher publishes it; undefined when unset or not an IPv4 endpoint. */
export function parseApiEndpoint(value: string | undefined): ApiEndpoint | undefined {
  const m = /^(\d+\.\d+\.\d+\.\d+):(\d+)$/.exec(value?.trim() ?? '')
  if (!m || parseIPv4(m[1]!) === undefined) return undefined
  const port = Number(m[2])
  return port > 0 && port < 65536 ? { ip: m[1]!, port } : undefined
}
