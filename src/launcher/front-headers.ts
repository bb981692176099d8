import { timingSafeEqual } from 'node:crypto'
import { clientCertMarkHeader, clientIdentityHeader } from '../apimachinery/client-identity'
import { ingressMarkHeader } from '../apimachinery/ingress-mark'
import { peerAddress } from './peer-address'

/** What the front itself sets for a verified client certificate. */
const identityHeaders = new Set([clientCertMarkHeader, clientIdentityHeader])

/**
 * Headers the runtime takes as set by itself or by Cloudflare's edge, never by a client:
 * Miniflare's `MF-*` (its entry worker acts on them: MF-Original-URL replaces the URL the Worker
 * sees, MF-Route-Override picks the Worker that serves, MF-CF-Blob sets `request.cf`, and
 * MF-Disable-Pretty-Error, MF-Proxy-Shared-Secret, MF-Custom-*-Service, MF-Op-*…), and the `cf-*`
 * Cloudflare's edge sets on each request (cf-connecting-ip, cf-ray, cf-ipcountry, cf-visitor,
 * cf-worker…).
 */
export const isRuntimeHeader = (name: string): boolean => /^(mf|cf)-/i.test(name)

/** Headers naming the client or the hops before: only a proxy the Worker trusts may set them. */
export const isForwardingHeader = (name: string): boolean =>
  /^(forwarded|x-forwarded-.*|x-real-ip)$/i.test(name)

function sameSecret(value: string, secret: string): boolean {
  const a = Buffer.from(value)
  const b = Buffer.from(secret)
  return a.length === b.length && timingSafeEqual(a, b)
}

/**
 * The headers of a client's request (Node's rawHeaders) as the https front passes them to the
 * Worker: without any runtime, forwarding or identity header the client sent, and with
 * `CF-Connecting-IP` the address the connection came from (`peer`). A request the local edge's
 * listener marks with `ingressSecret` keeps cf-connecting-ip and the forwarding headers as that
 * listener passes them on; it answers for them.
 */
export function clientHeaders(
  rawHeaders: readonly string[],
  peer: string | undefined,
  ingressSecret?: string,
): [string, string][] {
  const pairs: [string, string][] = []
  for (let i = 0; i + 1 < rawHeaders.length; i += 2)
    pairs.push([rawHeaders[i]!, rawHeaders[i + 1]!])
  const fromEdge =
    !!ingressSecret &&
    pairs.some(([k, v]) => k.toLowerCase() === ingressMarkHeader && sameSecret(v, ingressSecret))
  const kept = pairs.filter(([name]) => {
    const lower = name.toLowerCase()
    if (identityHeaders.has(lower)) return false
    if (fromEdge && (lower === 'cf-connecting-ip' || isForwardingHeader(lower))) return true
    return !isRuntimeHeader(lower) && !isForwardingHeader(lower)
  })
  if (!fromEdge && peer) kept.push(['CF-Connecting-IP', peerAddress(peer)])
  return kept
}
