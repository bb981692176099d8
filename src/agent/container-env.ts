import type { KubeObject } from '../apimachinery/types'
import { linkedServices, serviceEnv } from './service-env'
import { parseBytes, parseCpuMillis, QuantityError } from '../apimachinery/quantity'

/** core/v1 EnvVar and EnvFromSource, as far as the agent resolves them. */
export interface EnvVar {
  name: string
  value?: string
  valueFrom?: {
    configMapKeyRef?: { name?: string; key: string; optional?: boolean }
    secretKeyRef?: { name?: string; key: string; optional?: boolean }
    fieldRef?: { fieldPath: string; apiVersion?: string }
    resourceFieldRef?: { resource: string; containerName?: string; divisor?: string | number }
  }
}

export interface EnvFromSource {
  prefix?: string
  configMapRef?: { name?: string; optional?: boolean }
  secretRef?: { name?: string; optional?: boolean }
}

export interface ContainerSpec {
  name: string
  image?: string
  command?: string[]
  args?: string[]
  workingDir?: string
  env?: EnvVar[]
  envFrom?: EnvFromSource[]
  resources?: {
    limits?: Record<string, string | number>
    requests?: Record<string, string | number>
  }
  ports?: { name?: string; containerPort: number; protocol?: string }[]
  [field: string]: unknown
}

/** Where referenced ConfigMaps and Secrets come from: GETs through the API; undefined means 404. */
export interface EnvSources {
  configMap(namespace: string, name: string): Promise<KubeObject | undefined>
  secret(namespace: string, name: string): Promise<KubeObject | undefined>
  /** the Services of a namespace; without it containers get no service variables */
  services?(namespace: string): Promise<KubeObject[]>
}

/** What fieldRef and resourceFieldRef read beyond the pod itself. */
export interface EnvContext {
  podIP?: string
  hostIP?: string
  /** the node's allocatable cpu and memory, the value of an unset limit */
  allocatable?: Record<string, string>
}

/** A container cannot be created: kubelet reports this message with `CreateContainerConfigError`. */
export class EnvError extends Error {}

/** Resolves every container's environment of a pod; a container that cannot be resolved gets an error message instead. */
export async function resolvePodEnv(
  pod: KubeObject,
  sources: EnvSources,
  ctx: EnvContext,
): Promise<{ env: Record<string, Record<string, string>>; errors: Record<string, string> }> {
  const cached = cachedSources(sources)
  const base = await podServiceEnv(pod, sources)
  const env: Record<string, Record<string, string>> = {}
  const errors: Record<string, string> = {}
  for (const c of [...podContainers(pod), ...ephemeralSpecs(pod)]) {
    try {
      env[c.name] = await resolveContainerEnv(pod, c, cached, ctx, base)
    } catch (err) {
      if (!(err instanceof EnvError)) throw err
      errors[c.name] = err.message
    }
  }
  return { env, errors }
}

/** The service variables of a pod: its namespace's Services (unless `enableServiceLinks: false`) and `default/kubernetes`. */
async function podServiceEnv(
  pod: KubeObject,
  sources: EnvSources,
): Promise<Record<string, string>> {
  if (!sources.services) return {}
  const namespace = pod.metadata.namespace ?? 'default'
  const links =
    (pod.spec as { enableServiceLinks?: boolean } | undefined)?.enableServiceLinks !== false
  const lists = await Promise.all([
    links ? sources.services(namespace) : [],
    namespace === 'default' && links ? [] : sources.services('default'),
  ])
  return serviceEnv(linkedServices(namespace, links, lists.flat()))
}

/** Init containers then app containers, as the pod runs them. */
export function podContainers(pod: KubeObject): ContainerSpec[] {
  const spec = (pod.spec ?? {}) as {
    initContainers?: ContainerSpec[]
    containers?: ContainerSpec[]
  }
  return [...(spec.initContainers ?? []), ...(spec.containers ?? [])]
}

export interface EphemeralSpec extends ContainerSpec {
  /** the app or init container whose process namespace it joins, where the runtime can */
  targetContainerName?: string
}

/** spec.ephemeralContainers of a pod. */
export function ephemeralSpecs(pod: KubeObject): EphemeralSpec[] {
  const list = (pod.spec as { ephemeralContainers?: EphemeralSpec[] } | undefined)
    ?.ephemeralContainers
  return Array.isArray(list) ? list : []
}

/** One fetch per referenced object while resolving one pod. */
function cachedSources(sources: EnvSources): EnvSources {
  const seen = new Map<string, Promise<KubeObject | undefined>>()
  const once = (
    kind: string,
    ns: string,
    name: string,
    load: () => Promise<KubeObject | undefined>,
  ) => {
    const key = `${kind}/${ns}/${name}`
    let p = seen.get(key)
    if (!p) {
      p = load()
      seen.set(key, p)
    }
    return p
  }
  return {
    configMap: (ns, name) => once('cm', ns, name, () => sources.configMap(ns, name)),
    secret: (ns, name) => once('secret', ns, name, () => sources.secret(ns, name)),
  }
}

/** Environment variable names kubelet accepts from envFrom (others are skipped). */
const ENV_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/

/**
 * One container's environment, in kubelet's order: envFrom sources first, then `env` entries,
 * each able to refer to the variables before it (and to the service variables in `base`) with
 * `$(NAME)`; the service variables lie underneath, each overridden by a variable of that name.
 */
export async function resolveContainerEnv(
  pod: KubeObject,
  container: ContainerSpec,
  sources: EnvSources,
  ctx: EnvContext,
  base: Record<string, string> = {},
): Promise<Record<string, string>> {
  const namespace = pod.metadata.namespace ?? 'default'
  const out: Record<string, string> = {}

  for (const from of container.envFrom ?? []) {
    const prefix = from.prefix ?? ''
    if (from.configMapRef) {
      const name = from.configMapRef.name ?? ''
      const cm = await sources.configMap(namespace, name)
      if (!cm) {
        if (from.configMapRef.optional) continue
        throw new EnvError(`configmap "${name}" not found`)
      }
      for (const [k, v] of Object.entries(configMapData(cm)))
        if (ENV_NAME.test(prefix + k)) out[prefix + k] = v
    } else if (from.secretRef) {
      const name = from.secretRef.name ?? ''
      const secret = await sources.secret(namespace, name)
      if (!secret) {
        if (from.secretRef.optional) continue
        throw new EnvError(`secret "${name}" not found`)
      }
      for (const [k, v] of Object.entries(secretData(secret)))
        if (ENV_NAME.test(prefix + k)) out[prefix + k] = v
    }
  }

  for (const v of container.env ?? []) {
    if (!v.name) continue
    if (v.valueFrom === undefined) {
      out[v.name] = expandVars(v.value ?? '', { ...base, ...out })
      continue
    }
    const value = await valueFrom(pod, container, v, namespace, sources, ctx)
    if (value !== undefined) out[v.name] = value
  }
  return { ...base, ...out }
}

async function valueFrom(
  pod: KubeObject,
  container: ContainerSpec,
  v: EnvVar,
  namespace: string,
  sources: EnvSources,
  ctx: EnvContext,
): Promise<string | undefined> {
  const from = v.valueFrom!
  if (from.configMapKeyRef) {
    const { name = '', key, optional } = from.configMapKeyRef
    const cm = await sources.configMap(namespace, name)
    if (!cm) {
      if (optional) return undefined
      throw new EnvError(`configmap "${name}" not found`)
    }
    const data = configMapData(cm)
    if (!(key in data)) {
      if (optional) return undefined
      throw new EnvError(`couldn't find key ${key} in ConfigMap ${namespace}/${name}`)
    }
    return data[key]
  }
  if (from.secretKeyRef) {
    const { name = '', key, optional } = from.secretKeyRef
    const secret = await sources.secret(namespace, name)
    if (!secret) {
      if (optional) return undefined
      throw new EnvError(`secret "${name}" not found`)
    }
    const data = secretData(secret)
    if (!(key in data)) {
      if (optional) return undefined
      throw new EnvError(`couldn't find key ${key} in Secret ${namespace}/${name}`)
    }
    return data[key]
  }
  if (from.fieldRef) return fieldRefValue(pod, from.fieldRef.fieldPath, ctx)
  if (from.resourceFieldRef) return resourceFieldValue(pod, container, from.resourceFieldRef, ctx)
  return undefined
}

/** A ConfigMap's data with binaryData decoded, as kubelet exposes both. */
export function configMapData(cm: KubeObject): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries((cm.binaryData ?? {}) as Record<string, string>))
    out[k] = Buffer.from(v, 'base64').toString('utf8')
  for (const [k, v] of Object.entries((cm.data ?? {}) as Record<string, string>)) out[k] = String(v)
  return out
}

/** A Secret's data base64-decoded; a stored stringData (write-only upstream) is honoured too. */
export function secretData(secret: KubeObject): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries((secret.data ?? {}) as Record<string, string>))
    out[k] = Buffer.from(String(v), 'base64').toString('utf8')
  for (const [k, v] of Object.entries((secret.stringData ?? {}) as Record<string, string>))
    out[k] = String(v)
  return out
}

/** The downward API for env: the fields kubelet supports in `fieldRef.fieldPath`. */
export function fieldRefValue(pod: KubeObject, fieldPath: string, ctx: EnvContext): string {
  const meta = pod.metadata
  const spec = (pod.spec ?? {}) as {
    nodeName?: string
    serviceAccountName?: string
    serviceAccount?: string
  }
  const subscript = /^metadata\.(labels|annotations)\[(?:'([^']*)'|"([^"]*)")\]$/.exec(fieldPath)
  if (subscript) {
    const map = (subscript[1] === 'labels' ? meta.labels : meta.annotations) ?? {}
    return map[subscript[2] ?? subscript[3] ?? ''] ?? ''
  }
  switch (fieldPath) {
    case 'metadata.name':
      return meta.name ?? ''
    case 'metadata.namespace':
      return meta.namespace ?? ''
    case 'metadata.uid':
      return meta.uid ?? ''
    case 'metadata.labels':
      return formatMap(meta.labels)
    case 'metadata.annotations':
      return formatMap(meta.annotations)
    case 'spec.nodeName':
      return spec.nodeName ?? ''
    case 'spec.serviceAccountName':
      return spec.serviceAccountName ?? spec.serviceAccount ?? ''
    case 'status.hostIP':
    case 'status.hostIPs':
      return ctx.hostIP ?? ''
    case 'status.podIP':
    case 'status.podIPs':
      return ctx.podIP ?? ''
    default:
      throw new EnvError(`unsupported fieldPath: ${fieldPath}`)
  }
}

/** `key="value"` lines, sorted, as the downward API renders a whole map. */
function formatMap(map: Record<string, string> | undefined): string {
  return Object.keys(map ?? {})
    .sort()
    .map((k) => `${k}=${JSON.stringify(map![k])}`)
    .join('\n')
}

function resourceFieldValue(
  pod: KubeObject,
  container: ContainerSpec,
  ref: NonNullable<EnvVar['valueFrom']>['resourceFieldRef'] & object,
  ctx: EnvContext,
): string {
  const spec = (pod.spec ?? {}) as {
    containers?: ContainerSpec[]
    initContainers?: ContainerSpec[]
  }
  const target = ref.containerName
    ? [...(spec.containers ?? []), ...(spec.initContainers ?? [])].find(
        (c) => c.name === ref.containerName,
      )
    : container
  if (!target) throw new EnvError(`container "${ref.containerName}" not found for resourceFieldRef`)
  const m = /^(limits|requests)\.(cpu|memory|ephemeral-storage)$/.exec(ref.resource)
  if (!m) throw new EnvError(`unsupported container resource: ${ref.resource}`)
  const kind = m[1] === 'limits' ? 'limits' : 'requests'
  const resource = m[2]!
  let raw = target.resources?.[kind]?.[resource]
  // An unset limit reads as the node's allocatable amount; an unset request as the limit, then zero.
  if (raw === undefined && kind === 'requests') raw = target.resources?.limits?.[resource] ?? 0
  if (raw === undefined) raw = ctx.allocatable?.[resource] ?? 0
  // As the kubelet: cpu in millicores, memory and storage in bytes, divided and rounded up.
  const amount = (q: string | number) => {
    try {
      return resource === 'cpu' ? parseCpuMillis(q) : parseBytes(q)
    } catch (e) {
      throw new EnvError(
        e instanceof QuantityError ? `invalid quantity "${q}" for ${ref.resource}` : String(e),
      )
    }
  }
  const divisor = amount(ref.divisor ?? '1')
  if (divisor <= 0) throw new EnvError(`invalid divisor for ${ref.resource}`)
  return String(Math.ceil(amount(raw) / divisor))
}

/**
 * `$(NAME)` references as kubelet expands them in env values, command and args: a defined name is
 * replaced, an undefined one is kept as written, and `$$` is a literal `$`.
 */
export function expandVars(input: string, vars: Record<string, string>): string {
  let out = ''
  for (let i = 0; i < input.length; i++) {
    const ch = input[i]
    if (ch !== '$' || i + 1 >= input.length) {
      out += ch
      continue
    }
    const next = input[i + 1]
    if (next === '$') {
      out += '$'
      i++
      continue
    }
    if (next === '(') {
      const close = input.indexOf(')', i + 2)
      if (close < 0) {
        out += input.slice(i)
        break
      }
      const name = input.slice(i + 2, close)
      out += Object.prototype.hasOwnProperty.call(vars, name) ? vars[name] : `$(${name})`
      i = close
      continue
    }
    out += ch
  }
  return out
}
