/**
 * Bootstrap tokens, as kubeadm and k3s join nodes with them: a token `<id>.<secret>` stands for
 * the Secret `kube-system/bootstrap-token-<id>` of type `bootstrap.kubernetes.io/token`, which
 * holds the same id and secret, an optional RFC 3339 `expiration`, and
 * `usage-bootstrap-authentication: "true"`. Its user is `system:bootstrap:<id>` in
 * `system:bootstrappers` plus the groups listed in `auth-extra-groups`.
 */
import { randomTokenText, sameSecret } from './secret-compare'
import type { KubeObject } from './types'

export const bootstrapTokenType = 'bootstrap.kubernetes.io/token'
export const bootstrapTokenPrefix = 'bootstrap-token-'
export const bootstrapNamespace = 'kube-system'
export const bootstrappersGroup = 'system:bootstrappers'
/** The extra group kubeadm gives the tokens it creates for joining nodes. */
export const defaultNodeTokenGroup = 'system:bootstrappers:kubeadm:default-node-token'

const tokenPattern = /^([a-z0-9]{6})\.([a-z0-9]{16})$/
const extraGroupPattern = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/

export interface BootstrapToken {
  id: string
  secret: string
}

/** The id and secret of a bootstrap token string; undefined when it has not that shape. */
export function parseBootstrapToken(token: string): BootstrapToken | undefined {
  const m = tokenPattern.exec(token)
  return m ? { id: m[1]!, secret: m[2]! } : undefined
}

export function newBootstrapToken(): BootstrapToken {
  return { id: randomTokenText(6), secret: randomTokenText(16) }
}

export function bootstrapUser(id: string): string {
  return `system:bootstrap:${id}`
}

/** The Secret a bootstrap token is stored as, valid for `ttlSeconds` from `now` (ms). */
export function bootstrapTokenSecret(
  token: BootstrapToken,
  opts: { ttlSeconds: number; description: string; now?: number },
): KubeObject {
  const expiration = new Date((opts.now ?? Date.now()) + opts.ttlSeconds * 1000)
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: bootstrapTokenPrefix + token.id, namespace: bootstrapNamespace },
    type: bootstrapTokenType,
    stringData: {
      description: opts.description,
      'token-id': token.id,
      'token-secret': token.secret,
      expiration,
      'usage-bootstrap-authentication': 'true',
      'auth-extra-groups': defaultNodeTokenGroup,
    },
  }
}

/**
 * The groups of a stored bootstrap-token Secret when `token` is valid against it at `now` (ms):
 * not being deleted, of the bootstrap type, same id and secret, unexpired, usable for
 * authentication, with well-formed extra groups. Otherwise undefined.
 */
export async function bootstrapTokenGroups(
  secret: KubeObject,
  token: BootstrapToken,
  now = Date.now(),
): Promise<string[] | undefined> {
  if (secret.metadata.deletionTimestamp || secret.type !== bootstrapTokenType) return undefined
  const data = decodedData(secret)
  if (!(await sameSecret(data['token-secret'] ?? '', token.secret))) return undefined
  if (data['token-id'] !== token.id) return undefined
  const expiration = data.expiration
  if (expiration !== undefined) {
    const at = Date.parse(expiration)
    // An expiration that does not parse counts as expired, as upstream.
    if (Number.isNaN(at) || at <= now) return undefined
  }
  if (data['usage-bootstrap-authentication'] !== 'true') return undefined
  const extra = (data['auth-extra-groups'] ?? '')
    .split(',')
    .map((g) => g.trim())
    .filter(Boolean)
  if (extra.some((g) => !extraGroupPattern.test(g))) return undefined
  return [bootstrappersGroup, ...new Set(extra)]
}

/** A Secret's `data`, base64-decoded. */
export function decodedData(secret: KubeObject): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries((secret.data ?? {}) as Record<string, unknown>)) {
    if (typeof v !== 'string') continue
    try {
      out[k] = new TextDecoder().decode(Uint8Array.from(atob(v), (c) => c.charCodeAt(0)))
    } catch {
      // not base64: not a value this module wrote or reads
    }
  }
  return out
}
