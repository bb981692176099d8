/**
 * Service-account bearer tokens, as `kubectl create token` receives them: JWTs signed HS256 with
 * the admin token, carrying upstream's claims (issuer, audiences, expiry, token id, and the
 * service account's namespace, name and uid). Stateless: a token verifies with the admin token
 * alone; the API server then checks that its service account still exists with the same uid.
 */
import { fromBase64Url, sign, toBase64Url, verify } from './hmac'
import type { UserInfo } from './user-info'

/** The `iss` of every token, and the one audience the API server accepts (its default `--api-audiences`). */
export const serviceAccountIssuer = 'https://kubernetes.default.svc.cluster.local'
export const apiAudiences: readonly string[] = [serviceAccountIssuer]

export interface ServiceAccountClaims {
  namespace: string
  name: string
  uid: string
  /** the token's id (`jti`) */
  id: string
  audiences: string[]
  /** seconds since the epoch */
  issuedAt: number
  /** seconds since the epoch */
  expiresAt: number
}

const encoder = new TextEncoder()
const headerSegment = toBase64Url(encoder.encode(JSON.stringify({ alg: 'HS256', typ: 'JWT' })))

/** `system:serviceaccount:<namespace>:<name>` */
export function serviceAccountUser(namespace: string, name: string): string {
  return `system:serviceaccount:${namespace}:${name}`
}

/** The groups a service account is in: every service account's, and its namespace's. */
export function serviceAccountGroups(namespace: string): string[] {
  return ['system:serviceaccounts', `system:serviceaccounts:${namespace}`]
}

/**
 * A service account as a user, as upstream's ServiceAccountInfo makes it: its username and its two
 * groups. Not `system:authenticated`: authentication adds that to whoever it authenticated.
 */
export function serviceAccountIdentity(namespace: string, name: string): UserInfo {
  return { username: serviceAccountUser(namespace, name), groups: serviceAccountGroups(namespace) }
}

export async function mintServiceAccountToken(
  adminToken: string,
  claims: ServiceAccountClaims,
): Promise<string> {
  if (!adminToken) throw new Error('a service-account token needs the admin token')
  const payload = {
    aud: claims.audiences,
    exp: claims.expiresAt,
    iat: claims.issuedAt,
    iss: serviceAccountIssuer,
    jti: claims.id,
    'kubernetes.io': {
      namespace: claims.namespace,
      serviceaccount: { name: claims.name, uid: claims.uid },
    },
    nbf: claims.issuedAt,
    sub: serviceAccountUser(claims.namespace, claims.name),
  }
  const signed = `${headerSegment}.${toBase64Url(encoder.encode(JSON.stringify(payload)))}`
  return `${signed}.${await sign(adminToken, signed)}`
}

/** Whether a bearer token has the shape of a service-account token (signature not checked). */
export function isServiceAccountToken(token: string): boolean {
  return token.startsWith(`${headerSegment}.`) && token.split('.').length === 3
}

/**
 * The claims of a token that is signed with the admin token, issued here, meant for this API
 * server and within its validity at `now` (seconds); otherwise undefined.
 */
export async function verifyServiceAccountToken(
  adminToken: string,
  token: string,
  now = Date.now() / 1000,
): Promise<ServiceAccountClaims | undefined> {
  if (!adminToken || !isServiceAccountToken(token)) return undefined
  const [header, body, signature] = token.split('.') as [string, string, string]
  if (!(await verify(adminToken, signature, `${header}.${body}`))) return undefined
  const bytes = fromBase64Url(body)
  if (!bytes) return undefined
  let p: Record<string, any>
  try {
    p = JSON.parse(new TextDecoder().decode(bytes)) as Record<string, any>
  } catch {
    return undefined
  }
  const k8s = p['kubernetes.io'] as
    | { namespace?: unknown; serviceaccount?: { name?: unknown; uid?: unknown } }
    | undefined
  const claims = {
    namespace: k8s?.namespace,
    name: k8s?.serviceaccount?.name,
    uid: k8s?.serviceaccount?.uid,
    id: p.jti,
    audiences: p.aud,
    issuedAt: p.iat,
    expiresAt: p.exp,
  }
  if (
    typeof claims.namespace !== 'string' ||
    typeof claims.name !== 'string' ||
    typeof claims.uid !== 'string' ||
    typeof claims.id !== 'string'
  )
    return undefined
  if (!Array.isArray(claims.audiences) || !claims.audiences.some((a) => apiAudiences.includes(a)))
    return undefined
  if (
    p.iss !== serviceAccountIssuer ||
    typeof claims.expiresAt !== 'number' ||
    typeof claims.issuedAt !== 'number'
  )
    return undefined
  if (now >= claims.expiresAt || (typeof p.nbf === 'number' && now < p.nbf)) return undefined
  return claims as ServiceAccountClaims
}
