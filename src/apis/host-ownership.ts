import type { KubeObject } from '../apimachinery/types'
import { objectKey } from '../apimachinery/object-key'

/**
 * Who may serve a host at the edge. The edge is every tenant's public front, so a host belongs to
 * the namespace that claimed it first: the namespace of the oldest Ingress naming it (by
 * creationTimestamp, then uid, then namespace/name). A host an Ingress of another namespace claims
 * later is not that Ingress's to serve, and an Ingress with any claim it may not make is not
 * served at all. Each host's owner is decided on its own, from every Ingress of the edge's class
 * that names it, served or not, so a claim counts from its Ingress's creation.
 *
 * - A wildcard host (`*.example.com`, one label) is a claim of its own. An exact host one label
 *   below it (`shop.example.com`) that another namespace claims after the wildcard's owner did is
 *   refused too: exact rules win over wildcard ones, so it would take the wildcard owner's traffic.
 *   A wildcard claimed after such an exact host leaves that host to its owner.
 * - Rules without a host and a default backend claim the edge's catch-all (what no other rule
 *   takes), spelled `*` here.
 * - The API server's own hostnames are never served; `<name>.<namespace>.<lbDomain>` and
 *   `*.<namespace>.<lbDomain>` are the LoadBalancer Services' of that namespace only.
 * - An admin lets namespaces share a host through the `edgeplane` IngressClass's
 *   `ingress.edgeplane.dev/shared-hosts` annotation (see parseSharedHosts); their rules then merge.
 */

/** The annotation, on the `edgeplane` IngressClass, listing the hosts namespaces may share. */
export const sharedHostsAnnotation = 'ingress.edgeplane.dev/shared-hosts'
/** The claim of rules without a host and of a default backend: every host no other rule takes. */
export const catchAll = '*'

/** Each shared host: the namespaces that may serve it together, or any namespace. */
export type SharedHosts = ReadonlyMap<string, ReadonlySet<string> | 'any'>

export interface ClaimSettings {
  /** LoadBalancer Services are served at `<svc>.<ns>.<lbDomain>` */
  lbDomain: string
  /** hostnames of the API server, lower-case */
  apiHosts: readonly string[]
  shared: SharedHosts
}

export interface Ownership {
  /** each claim, and the namespaces it is served for (its owner first) */
  owners: Map<string, string[]>
  /** each Ingress not served (by `namespace/name`), with one reason per claim it may not make */
  refused: Map<string, string[]>
}

/**
 * `host` or `host=ns1+ns2`, separated by commas or white space: `host` alone may be shared by any
 * namespaces, `host=ns1+ns2` by those namespaces only. `*` names the catch-all.
 */
export function parseSharedHosts(value: string | undefined): SharedHosts {
  const shared = new Map<string, ReadonlySet<string> | 'any'>()
  for (const token of (value ?? '').split(/[\s,]+/)) {
    if (!token) continue
    const eq = token.indexOf('=')
    const host = (eq < 0 ? token : token.slice(0, eq)).toLowerCase()
    if (!host) continue
    shared.set(
      host,
      eq < 0
        ? 'any'
        : new Set(
            token
              .slice(eq + 1)
              .split('+')
              .filter((n) => n),
          ),
    )
  }
  return shared
}

const isLoopback = (host: string) => /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host === '::1'

/**
 * The API server's hostnames: those of EDGEPLANE_API_HOST, and the address of
 * EDGEPLANE_API_ENDPOINT (`ip:port`) with `localhost` when it is a loopback address (the local
 * API's certificate names both).
 */
export function apiHostnames(
  apiHost: string | undefined,
  apiEndpoint: string | undefined,
): string[] {
  const hosts = new Set<string>()
  for (const h of (apiHost ?? '').split(',')) {
    const name = h.trim().toLowerCase().replace(/:\d+$/, '')
    if (name) hosts.add(name)
  }
  const endpoint = (apiEndpoint ?? '').trim()
  const ip = endpoint.startsWith('[')
    ? endpoint.slice(1, endpoint.indexOf(']'))
    : endpoint.replace(/:\d+$/, '')
  if (ip) {
    hosts.add(ip.toLowerCase())
    if (isLoopback(ip)) hosts.add('localhost')
  }
  return [...hosts]
}

/** The hosts an Ingress claims, lower-case, with `*` for rules without a host and a default backend. */
export function claimsOf(ing: KubeObject): string[] {
  const spec = (ing.spec ?? {}) as { defaultBackend?: unknown; rules?: Array<{ host?: string }> }
  const claims = new Set<string>()
  if (spec.defaultBackend) claims.add(catchAll)
  for (const rule of spec.rules ?? []) claims.add(rule.host ? rule.host.toLowerCase() : catchAll)
  return [...claims]
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** Oldest first: creationTimestamp, then uid, then namespace and name. */
export function claimOrder(a: KubeObject, b: KubeObject): number {
  const [ma, mb] = [a.metadata, b.metadata]
  return (
    compare(String(ma.creationTimestamp ?? ''), String(mb.creationTimestamp ?? '')) ||
    compare(ma.uid ?? '', mb.uid ?? '') ||
    compare(ma.namespace ?? '', mb.namespace ?? '') ||
    compare(ma.name ?? '', mb.name ?? '')
  )
}

/** The namespace whose LoadBalancer Services `host` names (`<svc>.<ns>.<lbDomain>`, or `*.<ns>.<lbDomain>`). */
export function lbNamespaceOf(host: string, lbDomain: string): string | undefined {
  const suffix = `.${lbDomain.toLowerCase()}`
  if (!host.endsWith(suffix)) return undefined
  const labels = host.slice(0, -suffix.length).split('.')
  return labels.length === 2 && labels[0] && labels[1] ? labels[1] : undefined
}

/** The wildcard one label above an exact host: `*.example.com` for `shop.example.com`. */
function wildcardAbove(claim: string): string | undefined {
  if (claim === catchAll || claim.startsWith('*.')) return undefined
  const dot = claim.indexOf('.')
  return dot > 0 && dot < claim.length - 1 ? `*${claim.slice(dot)}` : undefined
}

function sharedBetween(shared: SharedHosts, claim: string, a: string, b: string): boolean {
  const entry = shared.get(claim)
  return entry === 'any' || (entry !== undefined && entry.has(a) && entry.has(b))
}

const anotherNamespace = 'an Ingress of another namespace'

function describe(claim: string): string {
  return claim === catchAll
    ? "rules without a host and the default backend (the edge's catch-all) are"
    : `host "${claim}" is`
}

/** Why a namespace may never claim this, whoever else does. */
function forbiddenClaim(claim: string, namespace: string, s: ClaimSettings): string | undefined {
  if (s.apiHosts.includes(claim))
    return `host "${claim}" is the API server's own and is never served at the edge`
  const reserved = lbNamespaceOf(claim, s.lbDomain)
  if (reserved !== undefined && reserved !== namespace)
    return `host "${claim}" is reserved for the LoadBalancer Services of namespace "${reserved}"`
  return undefined
}

/**
 * The owners of every claim, and the Ingresses that are not served, among `served` (the edge's
 * Ingresses that are not being deleted).
 */
export function hostOwnership(served: readonly KubeObject[], s: ClaimSettings): Ownership {
  const sorted = [...served].sort(claimOrder)
  const owners = new Map<string, string[]>()
  // `${claim} ${namespace}` → the age rank of that namespace's first claim of it
  const since = new Map<string, number>()
  for (const [rank, ing] of sorted.entries()) {
    const ns = ing.metadata.namespace ?? ''
    for (const claim of claimsOf(ing)) {
      if (forbiddenClaim(claim, ns, s)) continue
      const list = owners.get(claim)
      if (list?.includes(ns)) continue
      if (list && !list.every((m) => sharedBetween(s.shared, claim, m, ns))) continue
      if (list) list.push(ns)
      else owners.set(claim, [ns])
      since.set(`${claim} ${ns}`, rank)
    }
  }
  const refused = new Map<string, string[]>()
  for (const ing of sorted) {
    const ns = ing.metadata.namespace ?? ''
    const reasons: string[] = []
    for (const claim of claimsOf(ing)) {
      const forbidden = forbiddenClaim(claim, ns, s)
      if (forbidden) {
        reasons.push(forbidden)
        continue
      }
      if (!owners.get(claim)?.includes(ns)) {
        reasons.push(`${describe(claim)} already claimed by ${anotherNamespace}`)
        continue
      }
      const wildcard = wildcardAbove(claim)
      if (!wildcard) continue
      const mine = since.get(`${claim} ${ns}`)!
      const over = owners
        .get(wildcard)
        ?.some(
          (m) =>
            m !== ns &&
            since.get(`${wildcard} ${m}`)! < mine &&
            !sharedBetween(s.shared, claim, m, ns) &&
            !sharedBetween(s.shared, wildcard, m, ns),
        )
      if (over)
        reasons.push(
          `host "${claim}" falls under "${wildcard}", already claimed by ${anotherNamespace}`,
        )
    }
    if (reasons.length) refused.set(objectKey(ing), reasons)
  }
  return { owners, refused }
}

/** The sentence an Event or a warning says about an Ingress that is not served. */
export function notServedMessage(reasons: readonly string[]): string {
  return `not served at the edge: ${reasons.join('; ')}`
}
