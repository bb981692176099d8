/**
 * Node bearer tokens: `node.<name>.<sig>`, sig = base64url(HMAC-SHA256(ADMIN_TOKEN, "node:<name>")).
 * Stateless: the API server verifies a token with the admin token alone, and whoever holds the
 * admin token can mint a node's token (WebCrypto, so the Worker and Node share this module).
 */

const prefix = 'node.'
/** base64url of a 32-byte HMAC, unpadded */
const sigLength = 43

// Typed through importKey so the module also checks against Node's types, which lack a global CryptoKey.
type HmacKey = ReturnType<typeof crypto.subtle.importKey>

const keys = new Map<string, HmacKey>()

function hmacKey(adminToken: string): HmacKey {
  let key = keys.get(adminToken)
  if (!key) {
    key = crypto.subtle.importKey('raw', new TextEncoder().encode(adminToken), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify'])
    // One admin token per process in practice; a bound keeps a rotating one from growing the map.
    if (keys.size >= 4) keys.clear()
    keys.set(adminToken, key)
  }
  return key
}

/** The user name kube-apiserver gives a node's credentials. */
export function nodeUser(nodeName: string): string {
  return `system:node:${nodeName}`
}

export async function mintNodeToken(adminToken: string, nodeName: string): Promise<string> {
  if (!adminToken) throw new Error('a node token needs the admin token')
  if (!nodeName) throw new Error('a node token needs a node name')
  const sig = await crypto.subtle.sign('HMAC', await hmacKey(adminToken), signedText(nodeName))
  return `${prefix}${nodeName}.${toBase64Url(new Uint8Array(sig))}`
}

/** The node name a token was minted for, when its signature is valid; otherwise undefined. */
export async function verifyNodeToken(adminToken: string, token: string): Promise<string | undefined> {
  const name = nodeNameOf(token)
  if (name === undefined || !adminToken) return undefined
  const sig = fromBase64Url(token.slice(token.length - sigLength))
  if (!sig) return undefined
  // verify() compares in constant time.
  return (await crypto.subtle.verify('HMAC', await hmacKey(adminToken), sig, signedText(name))) ? name : undefined
}

/** Whether a bearer token has the shape of a node token (signature not checked). */
export function isNodeToken(token: string): boolean {
  return nodeNameOf(token) !== undefined
}

/** The node named in a token of node-token shape (signature not checked). Names may hold dots; the signature never does. */
export function nodeNameOf(token: string): string | undefined {
  if (!token.startsWith(prefix) || token.length < prefix.length + 2 + sigLength) return undefined
  if (token[token.length - sigLength - 1] !== '.') return undefined
  const name = token.slice(prefix.length, token.length - sigLength - 1)
  return name.length > 0 ? name : undefined
}

export interface NodeCredentials {
  /** the bearer token to send; undefined when the kubeconfig has none (an anonymous dev server) */
  token: string | undefined
  user: string
}

/**
 * What a node agent authenticates with, given its kubeconfig's token: a node token is used as
 * is (it must name this node); any other token is taken as the admin token, and the node's own
 * restricted token is minted from it.
 */
export async function nodeCredentials(kubeconfigToken: string | undefined, nodeName: string): Promise<NodeCredentials> {
  const user = nodeUser(nodeName)
  if (!kubeconfigToken) return { token: undefined, user }
  const named = nodeNameOf(kubeconfigToken)
  if (named !== undefined) {
    if (named !== nodeName) throw new Error(`the kubeconfig holds the token of node "${named}", not of "${nodeName}"`)
    return { token: kubeconfigToken, user }
  }
  return { token: await mintNodeToken(kubeconfigToken, nodeName), user }
}

function signedText(nodeName: string): Uint8Array {
  return new TextEncoder().encode(`node:${nodeName}`)
}

function toBase64Url(bytes: Uint8Array): string {
  let bin = ''
  for (const b of bytes) bin += String.fromCharCode(b)
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

function fromBase64Url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return undefined
  try {
    const bin = atob(text.replace(/-/g, '+').replace(/_/g, '/'))
    const out = new Uint8Array(bin.length)
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i)
    return out
  } catch {
    return undefined
  }
}
