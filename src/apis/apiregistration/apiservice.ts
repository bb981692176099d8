/**
 * apiregistration.k8s.io/v1 APIService: its defaults and validation (kube-aggregator
 * pkg/apis/apiregistration/validation), and the Local APIServices kube-apiserver registers for
 * the group versions it serves itself.
 */
import type { KubeObject } from '../../apimachinery/types'
import { asRecord } from '../../apimachinery/json-value'
import { invalid, notSupported, required, type FieldCause } from '../../apimachinery/field-errors'
import {
  isDns1035Label,
  isDns1123Subdomain,
  isValidPortNum,
} from '../../apimachinery/field-formats'
import { builtinResources, groupVersions } from '../registry'

export const apiregistrationGroup = 'apiregistration.k8s.io'
/** The label kube-apiserver's autoregister controller puts on the APIServices it keeps. */
export const automanagedLabel = 'kube-aggregator.kubernetes.io/automanaged'
export const automanagedOnStart = 'onstart'
export const localReason = 'Local'
export const localMessage = 'Local APIServices are always available'

export interface ServiceReference {
  namespace?: string
  name?: string
  port?: number
}

export interface ApiServiceSpec {
  service?: ServiceReference | null
  group?: string
  version?: string
  insecureSkipTLSVerify?: boolean
  caBundle?: string
  groupPriorityMinimum?: number
  versionPriority?: number
}

export interface ApiServiceCondition {
  type: string
  status: string
  lastTransitionTime?: string
  reason?: string
  message?: string
}

export const specOf = (obj: KubeObject): ApiServiceSpec => asRecord(obj.spec) as ApiServiceSpec
export const conditionsOf = (obj: KubeObject): ApiServiceCondition[] => {
  const conditions = asRecord(obj.status).conditions
  return Array.isArray(conditions) ? (conditions as ApiServiceCondition[]) : []
}

/** `<version>.<group>`: the only name an APIService may have (`v1.` for the core group). */
export const apiServiceName = (group: string, version: string): string => `${version}.${group}`

/** SetDefaults_ServiceReference: a service's port defaults to 443. */
export function defaultApiService(obj: KubeObject): void {
  const service = specOf(obj).service
  if (
    service &&
    typeof service === 'object' &&
    (service.port === undefined || service.port === null)
  )
    service.port = 443
}

/** Whether this server serves a group version itself (its built-in registry). */
export function servedLocally(group: string, version: string): boolean {
  return builtinResources.some((d) => d.group === group && d.version === version)
}

/** ValidateAPIService, after the object's metadata (the name is checked as a path segment there). */
export function validateApiService(obj: KubeObject): FieldCause[] {
  const spec = specOf(obj)
  const group = typeof spec.group === 'string' ? spec.group : ''
  const version = typeof spec.version === 'string' ? spec.version : ''
  const causes: FieldCause[] = []
  const name = obj.metadata.name ?? ''
  const requiredName = apiServiceName(group, version)
  if (name && name !== requiredName)
    causes.push(
      invalid('metadata.name', name, `must be \`spec.version+"."+spec.group\`: "${requiredName}"`),
    )
  if (!group && version !== 'v1')
    causes.push(
      required('spec.group', 'only v1 may have an empty group and it better be legacy kube'),
    )
  if (group)
    for (const msg of isDns1123Subdomain(group)) causes.push(invalid('spec.group', group, msg))
  for (const msg of isDns1035Label(version)) causes.push(invalid('spec.version', version, msg))
  const gpm = spec.groupPriorityMinimum ?? 0
  if (gpm <= 0 || gpm > 20000)
    causes.push(invalid('spec.groupPriorityMinimum', gpm, 'must be positive and less than 20000'))
  const vp = spec.versionPriority ?? 0
  if (vp <= 0 || vp > 1000)
    causes.push(invalid('spec.versionPriority', vp, 'must be positive and less than 1000'))
  const caBundle = typeof spec.caBundle === 'string' ? spec.caBundle : ''
  const service = spec.service
  if (!service) {
    if (caBundle)
      causes.push(
        invalid(
          'spec.caBundle',
          `${base64Length(caBundle)} bytes`,
          'local APIServices may not have a caBundle',
        ),
      )
    if (spec.insecureSkipTLSVerify === true)
      causes.push(
        invalid(
          'spec.insecureSkipTLSVerify',
          true,
          'local APIServices may not have insecureSkipTLSVerify',
        ),
      )
    return causes
  }
  if (!service.namespace) causes.push(required('spec.service.namespace'))
  if (!service.name) causes.push(required('spec.service.name'))
  const port = service.port ?? 443
  const portErrors = isValidPortNum(port)
  if (portErrors.length)
    causes.push(invalid('spec.service.port', port, `port is not valid: ${portErrors.join(', ')}`))
  if (spec.insecureSkipTLSVerify === true && caBundle)
    causes.push(
      invalid('spec.insecureSkipTLSVerify', true, 'may not be true if caBundle is present'),
    )
  return causes
}

/** The status subresource writes conditions only: each needs a type and a status of True, False or Unknown. */
export function validateApiServiceStatus(obj: KubeObject): FieldCause[] {
  return conditionsOf(obj).flatMap((c, i) => {
    const out: FieldCause[] = []
    if (!c.type) out.push(required(`status.conditions[${i}].type`))
    if (!conditionStatuses.includes(c.status))
      out.push(notSupported(`status.conditions[${i}].status`, c.status, conditionStatuses))
    return out
  })
}

const conditionStatuses = ['True', 'False', 'Unknown']

function base64Length(b64: string): number {
  const clean = b64.replace(/\s+/g, '')
  return (
    Math.floor((clean.length * 3) / 4) - (clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0)
  )
}

/** kube-apiserver's discovery priorities for its own group versions (controlplane apiVersionPriorities). */
const priorities: Record<string, { group: number; version: number }> = {
  '/v1': { group: 18000, version: 1 },
  'apps/v1': { group: 17800, version: 15 },
  'events.k8s.io/v1': { group: 17750, version: 15 },
  'authentication.k8s.io/v1': { group: 17700, version: 15 },
  'authorization.k8s.io/v1': { group: 17600, version: 15 },
  'autoscaling/v2': { group: 17500, version: 30 },
  'autoscaling/v1': { group: 17500, version: 15 },
  'batch/v1': { group: 17400, version: 15 },
  'certificates.k8s.io/v1': { group: 17300, version: 15 },
  'networking.k8s.io/v1': { group: 17200, version: 15 },
  'policy/v1': { group: 17100, version: 15 },
  'rbac.authorization.k8s.io/v1': { group: 17000, version: 15 },
  'storage.k8s.io/v1': { group: 16800, version: 15 },
  'admissionregistration.k8s.io/v1': { group: 16700, version: 15 },
  'apiextensions.k8s.io/v1': { group: 16700, version: 15 },
  'scheduling.k8s.io/v1': { group: 16600, version: 15 },
  'coordination.k8s.io/v1': { group: 16500, version: 15 },
  'node.k8s.io/v1': { group: 16300, version: 15 },
  'discovery.k8s.io/v1': { group: 16200, version: 15 },
  'flowcontrol.apiserver.k8s.io/v1': { group: 16100, version: 21 },
  'apiregistration.k8s.io/v1': { group: 18000, version: 15 },
}
/** What a served group version missing from the table gets. */
const fallbackPriority = { group: 1000, version: 15 }

/** The Local APIService kube-apiserver keeps for a group version it serves. */
export function localApiService(group: string, version: string): KubeObject {
  const p = priorities[`${group}/${version}`] ?? fallbackPriority
  return {
    apiVersion: `${apiregistrationGroup}/v1`,
    kind: 'APIService',
    metadata: {
      name: apiServiceName(group, version),
      labels: { [automanagedLabel]: automanagedOnStart },
    },
    spec: {
      service: null,
      group,
      version,
      groupPriorityMinimum: p.group,
      versionPriority: p.version,
    },
  }
}

/** One Local APIService per group version the built-in registry serves, so a new group gets one without a change here. */
export function localApiServices(): KubeObject[] {
  return groupVersions(builtinResources).map((gv) => localApiService(gv.group, gv.version))
}
