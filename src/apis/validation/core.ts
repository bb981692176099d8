import {
  duplicate,
  type FieldCause,
  forbidden,
  invalid,
  notSupported,
  required,
  tooLong,
} from '../../apimachinery/field-errors'
import type { KubeObject } from '../../apimachinery/types'
import { objectMeta, read, serviceSpec, stringMap } from './shapes'
import { supportedProtocols, validatePodSpec } from './pod-spec'
import { validateEphemeralContainers } from './ephemeral'
import { goQuote } from '../../apimachinery/go-format'
import {
  byteLength,
  isConfigMapKey,
  isValidPortName,
  isValidPortNum,
  validateDns1123Label,
  validateDns1123Subdomain,
  validateLabels,
  validateQualifiedName,
} from '../../apimachinery/field-formats'

/** Pod, Service, ConfigMap and Secret (pkg/apis/core/validation). */

export function validatePod(obj: KubeObject): FieldCause[] {
  return [
    ...validatePodSpec(obj.spec, 'spec'),
    ...validateEphemeralContainers(obj.spec, 'spec.ephemeralContainers'),
  ]
}

export const serviceTypes = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort']

export function goServicePortKey(protocol: string, port: number): string {
  return `core.ServicePort{Name:"", Protocol:${goQuote(protocol)}, AppProtocol:(*string)(nil), Port:${port}, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}`
}

export function validateService(obj: KubeObject): FieldCause[] {
  const spec = read(serviceSpec, obj.spec)
  const causes: FieldCause[] = []
  const type = spec.type || 'ClusterIP'
  const clusterIPs = spec.clusterIPs?.length
    ? spec.clusterIPs
    : spec.clusterIP
      ? [spec.clusterIP]
      : []
  const headless = clusterIPs[0] === 'None'
  const ports = spec.ports ?? []
  if (!ports.length && !headless && type !== 'ExternalName') causes.push(required('spec.ports'))
  if ((type === 'LoadBalancer' || type === 'NodePort') && headless) {
    causes.push(
      invalid('spec.clusterIPs[0]', clusterIPs[0], `may not be set to 'None' for ${type} services`),
    )
  }
  if (type === 'ExternalName') {
    if (clusterIPs.length)
      causes.push(forbidden('spec.clusterIPs', 'may not be set for ExternalName services'))
    // A trailing dot marks the name fully qualified.
    const cname = (spec.externalName ?? '').replace(/\.$/, '')
    if (cname) causes.push(...validateDns1123Subdomain(cname, 'spec.externalName'))
    else causes.push(required('spec.externalName'))
  }
  const names = new Set<string>()
  ports.forEach((p, i) => {
    const at = `spec.ports[${i}]`
    if (ports.length > 1 && !p.name) causes.push(required(`${at}.name`))
    else if (p.name) {
      causes.push(...validateDns1123Label(p.name, `${at}.name`))
      if (names.has(p.name)) causes.push(duplicate(`${at}.name`, p.name))
      else names.add(p.name)
    }
    const port = p.port ?? 0
    causes.push(...isValidPortNum(port).map((m) => invalid(`${at}.port`, port, m)))
    const protocol = p.protocol || 'TCP'
    if (!supportedProtocols.includes(protocol))
      causes.push(notSupported(`${at}.protocol`, protocol, supportedProtocols))
    // An unset targetPort defaults to the port.
    const target =
      p.targetPort === undefined || p.targetPort === 0 || p.targetPort === '' ? port : p.targetPort
    if (typeof target === 'number')
      causes.push(...isValidPortNum(target).map((m) => invalid(`${at}.targetPort`, target, m)))
    else causes.push(...isValidPortName(target).map((m) => invalid(`${at}.targetPort`, target, m)))
    if (p.appProtocol !== undefined)
      causes.push(...validateQualifiedName(p.appProtocol, `${at}.appProtocol`))
  })
  if (spec.selector) causes.push(...validateLabels(spec.selector, 'spec.selector'))
  const affinity = spec.sessionAffinity || 'None'
  if (affinity !== 'ClientIP' && affinity !== 'None')
    causes.push(notSupported('spec.sessionAffinity', affinity, ['ClientIP', 'None']))
  if (!serviceTypes.includes(type)) causes.push(notSupported('spec.type', type, serviceTypes))
  if (type === 'ClusterIP') {
    ports.forEach((p, i) => {
      if (p.nodePort)
        causes.push(
          forbidden(`spec.ports[${i}].nodePort`, "may not be used when `type` is 'ClusterIP'"),
        )
    })
  }
  const nodePorts = new Set<string>()
  ports.forEach((p, i) => {
    if (!p.nodePort) return
    const key = `${p.protocol || 'TCP'}/${p.nodePort}`
    if (nodePorts.has(key)) causes.push(duplicate(`spec.ports[${i}].nodePort`, p.nodePort))
    nodePorts.add(key)
  })
  const seen = new Set<string>()
  ports.forEach((p, i) => {
    const protocol = p.protocol || 'TCP'
    const port = p.port ?? 0
    const key = `${protocol}/${port}`
    if (seen.has(key))
      causes.push(
        duplicate(`spec.ports[${i}]`, { protocol, port }, goServicePortKey(protocol, port)),
      )
    seen.add(key)
  })
  return causes
}

/** ConfigMaps and Secrets together may hold at most 1 MiB of data. */
export const maxDataSize = 1024 * 1024

export function base64Size(s: string): number {
  const clean = s.replace(/\s/g, '')
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding)
}

export function validateConfigMap(obj: KubeObject): FieldCause[] {
  const data = read(stringMap, obj.data) ?? {}
  const binaryData = read(stringMap, obj.binaryData) ?? {}
  const causes: FieldCause[] = []
  let total = 0
  for (const [key, value] of Object.entries(data)) {
    causes.push(...isConfigMapKey(key).map((m) => invalid(`data[${key}]`, key, m)))
    if (Object.prototype.hasOwnProperty.call(binaryData, key))
      causes.push(invalid(`data[${key}]`, key, 'duplicate of key present in binaryData'))
    total += byteLength(value)
  }
  for (const [key, value] of Object.entries(binaryData)) {
    causes.push(...isConfigMapKey(key).map((m) => invalid(`binaryData[${key}]`, key, m)))
    total += base64Size(value)
  }
  if (total > maxDataSize) causes.push(tooLong('', maxDataSize))
  return causes
}

export function validateSecret(obj: KubeObject): FieldCause[] {
  // stringData is merged into data before validation, and wins on a shared key.
  const data = read(stringMap, obj.data) ?? {}
  const stringData = read(stringMap, obj.stringData) ?? {}
  const sizes = new Map<string, number>()
  for (const [k, v] of Object.entries(data)) sizes.set(k, base64Size(v))
  for (const [k, v] of Object.entries(stringData)) sizes.set(k, byteLength(v))
  const causes: FieldCause[] = []
  let total = 0
  for (const [key, size] of sizes) {
    causes.push(...isConfigMapKey(key).map((m) => invalid(`data[${key}]`, key, m)))
    total += size
  }
  if (total > maxDataSize) causes.push(tooLong('data', maxDataSize))
  const has = (key: string) => sizes.has(key)
  const type = typeof obj.type === 'string' ? obj.type : ''
  switch (type) {
    case 'kubernetes.io/service-account-token': {
      const annotations = read(objectMeta, obj.metadata).annotations ?? {}
      if (!annotations['kubernetes.io/service-account.name']) {
        causes.push(required('metadata.annotations[kubernetes.io/service-account.name]'))
      }
      break
    }
    case 'kubernetes.io/dockercfg':
      if (!has('.dockercfg')) causes.push(required('data[.dockercfg]'))
      break
    case 'kubernetes.io/dockerconfigjson':
      if (!has('.dockerconfigjson')) causes.push(required('data[.dockerconfigjson]'))
      break
    case 'kubernetes.io/basic-auth':
      if (!has('username') && !has('password'))
        causes.push(required('data[username]'), required('data[password]'))
      break
    case 'kubernetes.io/ssh-auth':
      if (!sizes.get('ssh-privatekey')) causes.push(required('data[ssh-privatekey]'))
      break
    case 'kubernetes.io/tls':
      if (!has('tls.crt')) causes.push(required('data[tls.crt]'))
      if (!has('tls.key')) causes.push(required('data[tls.key]'))
      break
  }
  return causes
}
