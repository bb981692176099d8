/**
 * Node bearer tokens: `node.<name>.<sig>`, sig = base64url(HMAC-SHA256(ADMIN_TOKEN, "node:<name>")).
 * Stateless: the API server verifies a token with the admin token alone, and whoever holds the
 * admin token can mint a node's token (WebCrypto, so the Worker and Node share this module).
 */

import { sign, signatureLength as sigLength, verify } from './hmac'

const prefix = 'node.'

/** The user name kube-apiserver gives a node's credentials. */
export function nodeUser(nodeName: string): string {
  return `system:node:${nodeName}`
}

export async function mintNodeToken(adminToken: string, nodeName: string): Promise<string> {
  if (!adminToken) throw new Error('a node token needs the admin token')
  if (!nodeName) throw new Error('a node token needs a node name')
  return `${prefix}${nodeName}.${await sign(adminToken, signedText(nodeName))}`
}

/** The node name a token was minted for, when its signature is valid; otherwise undefined. */
export async function verifyNodeToken(adminToken: string, token: string): Promise<string | undefined> {
  const name = nodeNameOf(token)
  if (name === undefined || !adminToken) return undefined
  return (await verify(adminToken, token.slice(token.length - sigLength), signedText(name))) ? name : undefined
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

function signedText(nodeName: string): string {
  return `node:${nodeName}`
}
