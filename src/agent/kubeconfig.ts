import { readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, isAbsolute, join } from 'node:path'
import { parse } from 'yaml'
import type { Json } from '../apimachinery/json-value'

/** What the agent needs from a kubeconfig: where the server is, how to trust it, who we are. */
export interface ClusterAccess {
  server: string
  /** PEM bundle the server certificate must chain to; undefined means the system roots */
  ca?: string
  insecureSkipTlsVerify?: boolean
  token?: string
  /** client certificate authentication, when the kubeconfig uses it instead of a token */
  clientCert?: string
  clientKey?: string
  /** the context's namespace; informational for the agent */
  namespace?: string
}

export class KubeconfigError extends Error {}

interface NamedEntry<T> {
  name: string
  [key: string]: unknown
  cluster?: T
  user?: T
  context?: T
}

/** The kubeconfig path: the flag, else $KUBECONFIG's first entry, else ~/.kube/config. */
export function defaultKubeconfigPath(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.KUBECONFIG?.split(':').find((p) => p !== '')
  return fromEnv ?? join(homedir(), '.kube', 'config')
}

/** Reads and resolves a kubeconfig file for one context (the current one unless named). */
export function loadKubeconfig(path: string, context?: string): ClusterAccess {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (err) {
    throw new KubeconfigError(`cannot read kubeconfig ${path}: ${(err as Error).message}`)
  }
  return resolveKubeconfig(text, dirname(path), context)
}

/** Pure: the access details of one context of a kubeconfig text; relative file paths resolve against `baseDir`. */
export function resolveKubeconfig(text: string, baseDir: string, context?: string): ClusterAccess {
  let doc: Json
  try {
    doc = (parse(text) ?? {}) as Json
  } catch (err) {
    throw new KubeconfigError(`kubeconfig is not valid YAML: ${(err as Error).message}`)
  }
  const contextName = context ?? (doc['current-context'] as string | undefined)
  if (!contextName)
    throw new KubeconfigError('kubeconfig has no current-context (and no --context was given)')
  const ctx = find(doc.contexts, contextName, 'context')
  if (!ctx) throw new KubeconfigError(`kubeconfig has no context named "${contextName}"`)
  const clusterName = String(ctx.cluster ?? '')
  const cluster = find(doc.clusters, clusterName, 'cluster')
  if (!cluster)
    throw new KubeconfigError(
      `kubeconfig context "${contextName}" names cluster "${clusterName}", which is not defined`,
    )
  const server = cluster.server
  if (typeof server !== 'string' || server === '')
    throw new KubeconfigError(`kubeconfig cluster "${clusterName}" has no server`)
  const userName = ctx.user === undefined ? undefined : String(ctx.user)
  const user = userName ? (find(doc.users, userName, 'user') ?? {}) : {}

  const file = (p: unknown) =>
    readFileSync(isAbsolute(String(p)) ? String(p) : join(baseDir, String(p)), 'utf8')
  const data = (inline: unknown, path: unknown): string | undefined => {
    if (typeof inline === 'string' && inline !== '')
      return Buffer.from(inline, 'base64').toString('utf8')
    if (typeof path === 'string' && path !== '') return file(path)
    return undefined
  }

  const access: ClusterAccess = { server: server.replace(/\/+$/, '') }
  const ca = data(cluster['certificate-authority-data'], cluster['certificate-authority'])
  if (ca) access.ca = ca
  if (cluster['insecure-skip-tls-verify'] === true) access.insecureSkipTlsVerify = true
  if (typeof user.token === 'string' && user.token !== '') access.token = user.token
  else if (typeof user.tokenFile === 'string' && user.tokenFile !== '')
    access.token = file(user.tokenFile).trim()
  const cert = data(user['client-certificate-data'], user['client-certificate'])
  const key = data(user['client-key-data'], user['client-key'])
  if (cert && key) {
    access.clientCert = cert
    access.clientKey = key
  }
  if (typeof ctx.namespace === 'string') access.namespace = ctx.namespace
  return access
}

function find(
  list: unknown,
  name: string,
  field: 'cluster' | 'user' | 'context',
): Json | undefined {
  if (!Array.isArray(list)) return undefined
  const entry = (list as NamedEntry<Json>[]).find((e) => e && e.name === name)
  const value = entry?.[field]
  return value && typeof value === 'object' ? (value as Json) : undefined
}
