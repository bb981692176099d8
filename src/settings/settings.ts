import {
  defaultCompactRetainEvents,
  defaultCompactRetainSeconds,
  defaultEventTtlSeconds,
} from '../config'
import { apiHostnames } from '../apis/host-ownership'
import { defaultLbDomain } from '../apis/ingress-routes'
import { nodeCidrSettings, type NodeCidrSettings } from '../apis/node-cidrs'
import { parsePodSecuritySettings, type PodSecuritySettings } from '../apis/pod-security/settings'
import { defaultServiceClusterIpRange } from '../apis/service-ips'
import { parseApiEndpoint, type ApiEndpoint } from './api-endpoint'
import { evictionRatesFrom, type EvictionRateOptions } from './eviction-rates'
import { DEFAULT_GRACE_PERIOD_MS, parseGracePeriod } from './grace-period'
import type { Variables } from './variables'

/**
 * How often every controller reconciles every key when CONTROLLER_RESYNC_SECONDS is unset: the
 * safety net under the stores' change notifications and each controller's own deadlines, not what
 * drives it. Twelve hours, kube-controller-manager's `--min-resync-period`: long enough that an idle
 * cluster's controllers sleep, short enough that anything missed heals within the day.
 */
export const defaultResyncMs = 12 * 3600 * 1000

/** The least time between a controller's notification-driven passes when CONTROLLER_PASS_GAP_MS is unset. */
const defaultPassGapMs = 100

/** kube-controller-manager's --cluster-signing-duration default: one year. */
const defaultSigningDurationSeconds = 365 * 24 * 3600

/** The Worker's variables, parsed, each with its default (see Variables for what each means). */
export interface Settings {
  /** EDGEPLANE_INSECURE_ANONYMOUS is "true" */
  insecureAnonymous: boolean
  /** EDGEPLANE_CLOUDFLARE_MTLS is "true" */
  cloudflareMtls: boolean
  /** EDGEPLANE_STRICT_LIMITS is "true" */
  strictLimits: boolean
  /** COMPACT_RETAIN_EVENTS */
  compactRetainEvents: number
  /** COMPACT_RETAIN_SECONDS, in ms */
  compactRetainMs: number
  /** EDGEPLANE_EVENT_TTL_SECONDS, in ms */
  eventTtlMs: number
  /** CONTROLLER_NOTIFICATIONS is not "false" */
  controllerNotifications: boolean
  /** CONTROLLER_RESYNC_SECONDS, in ms */
  controllerResyncMs: number
  /**
   * CONTROLLER_PASS_GAP_MS: a burst of changes is taken in passes at most this far apart. The first
   * change after a quiet spell is acted on at once, the rest of the burst in batches, so a
   * controller's reads never crowd out the writes it follows.
   */
  controllerPassGapMs: number
  /** SERVICE_CLUSTER_IP_RANGE */
  serviceClusterIpRange: string
  /** CLUSTER_CIDR and NODE_CIDR_MASK_SIZE, or the Error naming the one that is wrong */
  nodeCidrs: NodeCidrSettings | Error
  /** EDGEPLANE_NODE_MONITOR_GRACE_PERIOD, in ms */
  nodeMonitorGracePeriodMs: number
  /** EDGEPLANE_NODE_EVICTION_RATE and its companions */
  evictionRates: EvictionRateOptions
  /** a cluster CA is set, and the certificates it issues are verified (the launcher's https front, or Cloudflare's mTLS) */
  clusterSigning: boolean
  /** CLUSTER_SIGNING_DURATION_SECONDS */
  signingDurationSeconds: number
  /** EDGEPLANE_API_HOST's entries, lower-case, as a request's Host names them; empty when it is unset */
  apiHostHeaders: string[]
  /** the API's hostnames: EDGEPLANE_API_HOST's, and EDGEPLANE_API_ENDPOINT's address (see apiHostnames) */
  apiHostnames: string[]
  /** EDGEPLANE_API_ENDPOINT, when it is an IPv4 `ip:port` */
  apiEndpoint: ApiEndpoint | undefined
  /** EDGEPLANE_LB_DOMAIN */
  lbDomain: string
  /** EDGEPLANE_INGRESS_ADDRESS, else the first of EDGEPLANE_API_HOST */
  ingressAddress: string | undefined
  /** EDGEPLANE_ROOT_CA, empty when unset */
  rootCa: string
  /** EDGEPLANE_POD_SECURITY_*, with every problem found in them */
  podSecurity: { settings: PodSecuritySettings; errors: string[] }
}

/** CLUSTER_SIGNING_DURATION_SECONDS, as --cluster-signing-duration: whole seconds, at least 600. */
function signingDurationSeconds(value: string | undefined): number {
  const n = Number(value)
  return value && Number.isInteger(n) && n >= 600 ? n : defaultSigningDurationSeconds
}

function eventTtlMs(value: string | undefined): number {
  const seconds = Number(value || defaultEventTtlSeconds)
  return (Number.isFinite(seconds) && seconds > 0 ? seconds : defaultEventTtlSeconds) * 1000
}

function nodeCidrsOf(v: Variables): NodeCidrSettings | Error {
  try {
    return nodeCidrSettings(v.CLUSTER_CIDR, v.NODE_CIDR_MASK_SIZE)
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e))
  }
}

/** The settings the variables give. */
export function parseSettings(v: Variables): Settings {
  return {
    insecureAnonymous: v.EDGEPLANE_INSECURE_ANONYMOUS === 'true',
    cloudflareMtls: v.EDGEPLANE_CLOUDFLARE_MTLS === 'true',
    strictLimits: v.EDGEPLANE_STRICT_LIMITS === 'true',
    compactRetainEvents: Number(v.COMPACT_RETAIN_EVENTS ?? defaultCompactRetainEvents),
    compactRetainMs: Number(v.COMPACT_RETAIN_SECONDS ?? defaultCompactRetainSeconds) * 1000,
    eventTtlMs: eventTtlMs(v.EDGEPLANE_EVENT_TTL_SECONDS),
    controllerNotifications: v.CONTROLLER_NOTIFICATIONS !== 'false',
    controllerResyncMs:
      v.CONTROLLER_RESYNC_SECONDS === undefined
        ? defaultResyncMs
        : Number(v.CONTROLLER_RESYNC_SECONDS) * 1000,
    controllerPassGapMs: Number(v.CONTROLLER_PASS_GAP_MS ?? defaultPassGapMs),
    serviceClusterIpRange: v.SERVICE_CLUSTER_IP_RANGE || defaultServiceClusterIpRange,
    nodeCidrs: nodeCidrsOf(v),
    nodeMonitorGracePeriodMs:
      parseGracePeriod(v.EDGEPLANE_NODE_MONITOR_GRACE_PERIOD) ?? DEFAULT_GRACE_PERIOD_MS,
    evictionRates: evictionRatesFrom(v),
    clusterSigning:
      !!v.CLUSTER_CA_CERT &&
      !!v.CLUSTER_CA_KEY &&
      (!!v.EDGEPLANE_CLIENT_CERT_SECRET || v.EDGEPLANE_CLOUDFLARE_MTLS === 'true'),
    signingDurationSeconds: signingDurationSeconds(v.CLUSTER_SIGNING_DURATION_SECONDS),
    apiHostHeaders: v.EDGEPLANE_API_HOST
      ? v.EDGEPLANE_API_HOST.split(',').map((h) => h.trim().toLowerCase())
      : [],
    apiHostnames: apiHostnames(v.EDGEPLANE_API_HOST, v.EDGEPLANE_API_ENDPOINT),
    apiEndpoint: parseApiEndpoint(v.EDGEPLANE_API_ENDPOINT),
    lbDomain: v.EDGEPLANE_LB_DOMAIN || defaultLbDomain,
    ingressAddress:
      v.EDGEPLANE_INGRESS_ADDRESS || v.EDGEPLANE_API_HOST?.split(',')[0]?.trim() || undefined,
    rootCa: v.EDGEPLANE_ROOT_CA ?? '',
    podSecurity: parsePodSecuritySettings(v),
  }
}

const parsed = new WeakMap<Variables, Settings>()

/** The settings of a Worker's (or a Durable Object's) environment, parsed the first time it is asked for them. */
export function settingsOf(env: Variables): Settings {
  let settings = parsed.get(env)
  if (!settings) parsed.set(env, (settings = parseSettings(env)))
  return settings
}
