import { asRecord, type Json } from '../apimachinery/json-value'

/**
 * The rest of upstream's PodSpec defaulting (pkg/apis/core/v1/defaults.go) that a user sees in
 * `-o yaml`: SetDefaults_PodSpec (an empty pod securityContext, enableServiceLinks, host ports of a
 * host-network pod), SetDefaults_Probe and SetDefaults_HTTPGetAction, SetDefaults_ObjectFieldSelector,
 * the volume sources' defaultMode 0644, a projected service account token's expirationSeconds and
 * an unset hostPath type.
 */

const DEFAULT_MODE = 0o644
const TOKEN_EXPIRATION_SECONDS = 3600

const records = (v: unknown): Json[] =>
  Array.isArray(v)
    ? v.filter((x): x is Json => !!x && typeof x === 'object' && !Array.isArray(x))
    : []
const record = (v: unknown): Json | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined

function defaultHttpGet(handler: Json | undefined): void {
  const get = record(handler?.httpGet)
  if (!get) return
  get.path ||= '/'
  get.scheme ||= 'HTTP'
}

function defaultProbe(probe: unknown): void {
  const p = record(probe)
  if (!p) return
  p.timeoutSeconds ||= 1
  p.periodSeconds ||= 10
  p.successThreshold ||= 1
  p.failureThreshold ||= 3
  defaultHttpGet(p)
}

function defaultFieldRef(holder: Json | undefined): void {
  const ref = record(holder?.fieldRef)
  if (ref) ref.apiVersion ||= 'v1'
}

function defaultContainer(c: Json, hostNetwork: boolean): void {
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) defaultProbe(c[probe])
  const lifecycle = record(c.lifecycle)
  defaultHttpGet(record(lifecycle?.postStart))
  defaultHttpGet(record(lifecycle?.preStop))
  for (const e of records(c.env)) defaultFieldRef(record(e.valueFrom))
  // A host-network pod listens on the host: a port's hostPort is its containerPort.
  if (hostNetwork) for (const p of records(c.ports)) if (!p.hostPort) p.hostPort = p.containerPort
}

function defaultVolume(v: Json): void {
  for (const source of ['secret', 'configMap', 'downwardAPI', 'projected']) {
    const s = record(v[source])
    if (s && s.defaultMode === undefined) s.defaultMode = DEFAULT_MODE
  }
  for (const item of records(record(v.downwardAPI)?.items)) defaultFieldRef(item)
  for (const source of records(record(v.projected)?.sources)) {
    for (const item of records(record(source.downwardAPI)?.items)) defaultFieldRef(item)
    const token = record(source.serviceAccountToken)
    if (token && token.expirationSeconds === undefined)
      token.expirationSeconds = TOKEN_EXPIRATION_SECONDS
  }
  const hostPath = record(v.hostPath)
  if (hostPath && hostPath.type === undefined) hostPath.type = ''
}

export function defaultPodSpecFields(spec: Json): void {
  spec.securityContext ??= {}
  spec.enableServiceLinks ??= true
  const hostNetwork = spec.hostNetwork === true
  for (const list of ['containers', 'initContainers', 'ephemeralContainers'])
    for (const c of records(spec[list])) defaultContainer(c, hostNetwork)
  for (const v of records(spec.volumes)) defaultVolume(v)
}

/** PodSpec defaults users see in `-o yaml` and controllers rely on. */
export function defaultPodSpec(spec: Json): void {
  spec.restartPolicy ??= 'Always'
  spec.terminationGracePeriodSeconds ??= 30
  spec.dnsPolicy ??= 'ClusterFirst'
  spec.schedulerName ??= 'default-scheduler'
  for (const list of ['containers', 'initContainers', 'ephemeralContainers']) {
    for (const c of (spec[list] as Json[] | undefined) ?? []) {
      if (!c || typeof c !== 'object') continue
      c.terminationMessagePath ??= '/dev/termination-log'
      c.terminationMessagePolicy ??= 'File'
      if (c.imagePullPolicy === undefined && typeof c.image === 'string')
        c.imagePullPolicy = /:latest$|^[^:@]*$/.test(c.image.split('/').pop() ?? '')
          ? 'Always'
          : 'IfNotPresent'
      for (const p of (c.ports as Json[] | undefined) ?? [])
        if (p && typeof p === 'object') p.protocol ??= 'TCP'
    }
  }
  defaultPodSpecFields(spec)
}

/** The pod spec of a `template` (a workload's spec.template, a PodTemplate's template), if there is one. */
export function templatePodSpecs(holder: Json): Json[] {
  return holder.template ? [asRecord(asRecord(holder.template).spec)] : []
}
