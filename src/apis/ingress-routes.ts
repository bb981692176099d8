import type { KubeObject } from '../apimachinery/types'
import { objectKey } from '../apimachinery/object-key'
import {
  claimOrder,
  hostOwnership,
  parseSharedHosts,
  sharedHostsAnnotation,
  type ClaimSettings,
} from './host-ownership'

/** The IngressClass served at the edge, and the controller name it carries. */
export const edgeIngressClass = 'edgeplane'
export const edgeController = 'edgeplane.dev/edge'
export const defaultClassAnnotation = 'ingressclass.kubernetes.io/is-default-class'

/** Where a matched request goes: a Service port (number, or name) in a namespace. */
export interface Backend {
  namespace: string
  service: string
  port: string
}

interface Rule {
  /** lower-case; `*.example.com` matches one label; undefined matches any host */
  host?: string
  pathType: string
  path: string
  backend: Backend
}

/** Everything the edge routes by, built from the served Ingresses and LoadBalancer Services. */
export interface RouteTable {
  rules: Rule[]
  defaultBackend?: Backend
  /** `<svc>.<ns>.<lb domain>` → the service's HTTP port */
  loadBalancers: Map<string, Backend>
}

interface IngressBackendSpec {
  service?: { name?: string; port?: { name?: string; number?: number } }
}

interface IngressSpec {
  ingressClassName?: string
  defaultBackend?: IngressBackendSpec
  rules?: Array<{
    host?: string
    http?: { paths?: Array<{ path?: string; pathType?: string; backend?: IngressBackendSpec }> }
  }>
}

interface ServiceSpec {
  type?: string
  ports?: Array<{ port: number }>
}

/**
 * Whether the edge serves an Ingress: its class is `edgeplane`, or it names none (nor the legacy
 * annotation) while `edgeplane` is the default class.
 */
export function servedByEdge(ing: KubeObject, edgeIsDefault: boolean): boolean {
  const cls =
    (ing.spec as IngressSpec | undefined)?.ingressClassName ??
    ing.metadata.annotations?.['kubernetes.io/ingress.class']
  return cls === edgeIngressClass || (cls === undefined && edgeIsDefault)
}

export function isDefaultClass(cls: KubeObject | undefined): boolean {
  return cls?.metadata.annotations?.[defaultClassAnnotation] === 'true'
}

function backendOf(namespace: string, spec: IngressBackendSpec | undefined): Backend | undefined {
  const svc = spec?.service
  if (!svc?.name) return undefined
  const port = svc.port?.number !== undefined ? String(svc.port.number) : svc.port?.name
  if (!port) return undefined
  return { namespace, service: svc.name, port }
}

/** What the edge routes by besides the objects: whether `edgeplane` is the default class, and who may claim what. */
export interface EdgeSettings extends ClaimSettings {
  edgeIsDefault: boolean
}

/** The settings the `edgeplane` IngressClass (if any) gives: default or not, and its shared hosts. */
export function edgeSettingsOf(
  edgeClass: KubeObject | undefined,
  lbDomain: string,
  apiHosts: readonly string[],
): EdgeSettings {
  return {
    edgeIsDefault: isDefaultClass(edgeClass),
    lbDomain,
    apiHosts,
    shared: parseSharedHosts(edgeClass?.metadata.annotations?.[sharedHostsAnnotation]),
  }
}

/** The Ingresses of the edge's class that are not being deleted, oldest first (see claimOrder). */
export function servedIngresses(
  ingresses: readonly KubeObject[],
  edgeIsDefault: boolean,
): KubeObject[] {
  return ingresses
    .filter((i) => !i.metadata.deletionTimestamp && servedByEdge(i, edgeIsDefault))
    .sort(claimOrder)
}

/**
 * The route table, from the Ingresses whose every host claim holds (see host-ownership.ts): the
 * oldest of their default backends wins, as rules are kept in age order.
 */
export function buildRoutes(
  ingresses: KubeObject[],
  services: KubeObject[],
  settings: EdgeSettings,
): RouteTable {
  const table: RouteTable = { rules: [], loadBalancers: new Map() }
  const served = servedIngresses(ingresses, settings.edgeIsDefault)
  const { refused } = hostOwnership(served, settings)
  for (const ing of served) {
    if (refused.has(objectKey(ing))) continue
    const ns = ing.metadata.namespace ?? 'default'
    const spec = (ing.spec ?? {}) as IngressSpec
    table.defaultBackend ??= backendOf(ns, spec.defaultBackend)
    for (const rule of spec.rules ?? []) {
      for (const p of rule.http?.paths ?? []) {
        const backend = backendOf(ns, p.backend)
        if (!backend) continue
        table.rules.push({
          host: rule.host?.toLowerCase() || undefined,
          pathType: p.pathType ?? 'ImplementationSpecific',
          path: p.path || '/',
          backend,
        })
      }
    }
  }
  for (const svc of services) {
    const spec = (svc.spec ?? {}) as ServiceSpec
    if (spec.type !== 'LoadBalancer' || !spec.ports?.length) continue
    const port = spec.ports.find((p) => p.port === 80) ?? spec.ports[0]!
    const ns = svc.metadata.namespace ?? 'default'
    table.loadBalancers.set(lbHostname(svc.metadata.name ?? '', ns, settings.lbDomain), {
      namespace: ns,
      service: svc.metadata.name ?? '',
      port: String(port.port),
    })
  }
  return table
}

/** LoadBalancer Services are served at `<svc>.<ns>.localhost` unless EDGEPLANE_LB_DOMAIN says otherwise. */
export const defaultLbDomain = 'localhost'

export function lbHostname(name: string, namespace: string, lbDomain: string): string {
  return `${name}.${namespace}.${lbDomain}`.toLowerCase()
}

function hostMatches(pattern: string, host: string): boolean {
  if (!pattern.startsWith('*.')) return pattern === host
  const suffix = pattern.slice(1)
  // A wildcard covers exactly one DNS label.
  return (
    host.endsWith(suffix) &&
    !host.slice(0, -suffix.length).includes('.') &&
    host.length > suffix.length
  )
}

/** Prefix matching is by path element: `/foo` matches `/foo` and `/foo/bar`, not `/foobar`. */
function prefixMatches(prefix: string, path: string): boolean {
  const p = prefix.replace(/\/+$/, '')
  if (p === '') return true
  return path === p || path.startsWith(`${p}/`)
}

/**
 * The backend for a request: a LoadBalancer hostname first, then the Ingress rules of the most
 * specific host that has any (exact, then wildcard, then rules without a host), where an Exact
 * path beats a prefix and a longer prefix a shorter one (ImplementationSpecific is matched as
 * Prefix); the default backend when none of that host's paths match, if it is of a namespace
 * serving that host (another namespace's app never sees a host's requests).
 */
export function matchRoute(table: RouteTable, host: string, path: string): Backend | undefined {
  const h = host.toLowerCase()
  const lb = table.loadBalancers.get(h)
  if (lb) return lb
  const tiers = [
    table.rules.filter((r) => r.host !== undefined && !r.host.startsWith('*.') && r.host === h),
    table.rules.filter((r) => r.host?.startsWith('*.') && hostMatches(r.host, h)),
    table.rules.filter((r) => r.host === undefined),
  ]
  for (const rules of tiers) {
    let best: { rule: Rule; score: number } | undefined
    for (const rule of rules) {
      let score = -1
      if (rule.pathType === 'Exact') score = rule.path === path ? Number.MAX_SAFE_INTEGER : -1
      else if (prefixMatches(rule.path, path)) score = rule.path.replace(/\/+$/, '').length
      if (score >= 0 && (!best || score > best.score)) best = { rule, score }
    }
    // The most specific host that has rules decides, with the default backend for other paths.
    if (rules.length === 0) continue
    if (best) return best.rule.backend
    const fallback = table.defaultBackend
    return fallback &&
      rules.some((r) => r.host === undefined || r.backend.namespace === fallback.namespace)
      ? fallback
      : undefined
  }
  return table.defaultBackend
}
