import { resolve } from 'node:path'
import { nodeCidrSettings } from '../apis/node-cidrs'
import { parsePodSecuritySettings, podSecurityVariableNames } from '../apis/pod-security/settings'

export interface LauncherSettings {
  stateDir: string
  port: number
  /** plain-http port of the local edge (Ingress and LoadBalancer traffic); 0 turns it off */
  ingressPort: number
  /** Also run the node agent (when it exists). */
  agent: boolean
  /** Extra string bindings handed to the Worker as they are. */
  passThroughVars: Record<string, string>
}

// Environment variables forwarded to the Worker under the same name when set.
const PASS_THROUGH = [
  'EDGEPLANE_NODE_MONITOR_GRACE_PERIOD',
  'EDGEPLANE_NODE_EVICTION_RATE',
  'EDGEPLANE_SECONDARY_NODE_EVICTION_RATE',
  'EDGEPLANE_UNHEALTHY_ZONE_THRESHOLD',
  'EDGEPLANE_LARGE_CLUSTER_SIZE_THRESHOLD',
  'EDGEPLANE_EVENT_TTL_SECONDS',
  'CLUSTER_CIDR',
  'NODE_CIDR_MASK_SIZE',
  'EDGEPLANE_LB_DOMAIN',
  'EDGEPLANE_INGRESS_ADDRESS',
  'EDGEPLANE_STRICT_LIMITS',
  'CONTROLLER_RESYNC_SECONDS',
  ...podSecurityVariableNames,
]

export class UsageError extends Error {}

export function readSettings(argv: string[], env: NodeJS.ProcessEnv): LauncherSettings {
  let agent = false
  for (const arg of argv) {
    if (arg === '--agent') agent = true
    else throw new UsageError(`unknown argument '${arg}' (supported: --agent)`)
  }
  const rawPort = env.EDGEPLANE_PORT ?? '8787'
  const port = Number(rawPort)
  if (!/^\d+$/.test(rawPort) || port > 65535)
    throw new UsageError(`EDGEPLANE_PORT must be a port number, got '${rawPort}'`)
  try {
    nodeCidrSettings(env.CLUSTER_CIDR, env.NODE_CIDR_MASK_SIZE)
  } catch (err) {
    throw new UsageError((err as Error).message)
  }
  // kube-apiserver does not start with a PodSecurityConfiguration it cannot read; nor does the launcher.
  const podSecurity = parsePodSecuritySettings(env)
  if (podSecurity.errors.length) throw new UsageError(podSecurity.errors.join('; '))
  const rawIngress = env.EDGEPLANE_INGRESS_PORT ?? '8080'
  const ingressPort = Number(rawIngress)
  if (!/^\d+$/.test(rawIngress) || ingressPort > 65535)
    throw new UsageError(`EDGEPLANE_INGRESS_PORT must be a port number, got '${rawIngress}'`)
  const passThroughVars: Record<string, string> = {}
  for (const name of PASS_THROUGH) {
    const value = env[name]
    if (value !== undefined && value !== '') passThroughVars[name] = value
  }
  return {
    stateDir: resolve(env.EDGEPLANE_STATE || '.edgeplane'),
    port,
    ingressPort,
    agent,
    passThroughVars,
  }
}
