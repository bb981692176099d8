/**
 * The resources quota is kept for: the kinds whose objects the resource quota controller counts,
 * and the names their usage is reported under. A quota limiting any other name is stored and
 * shown, but neither counted nor enforced.
 */
import type { ResourceDef } from '../resource-def'
import { objectCountName } from './usage'

export interface TrackedKind {
  group: string
  version: string
  plural: string
}

export const trackedKinds: readonly TrackedKind[] = Object.freeze(
  [
    ['', 'pods'],
    ['', 'services'],
    ['', 'configmaps'],
    ['', 'secrets'],
    ['', 'persistentvolumeclaims'],
    ['', 'resourcequotas'],
    ['', 'replicationcontrollers'],
    ['apps', 'deployments'],
    ['apps', 'replicasets'],
    ['apps', 'statefulsets'],
    ['apps', 'daemonsets'],
    ['batch', 'jobs'],
    ['batch', 'cronjobs'],
  ].map(([group, plural]) => Object.freeze({ group: group!, version: 'v1', plural: plural! })),
)

const countNames = new Set(trackedKinds.map(objectCountName))
const classic = new Set([
  'pods',
  'services',
  'services.loadbalancers',
  'services.nodeports',
  'configmaps',
  'secrets',
  'persistentvolumeclaims',
  'requests.storage',
  'resourcequotas',
  'replicationcontrollers',
])
const compute = new Set([
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
])

/** Whether usage of this resource name is counted (and so enforced). */
export function isTrackedName(name: string): boolean {
  if (countNames.has(name) || classic.has(name) || compute.has(name)) return true
  if (name.startsWith('hugepages-') || name.startsWith('requests.hugepages-')) return true
  // extended resources are quota'd by their request: requests.example.com/gpu
  return name.startsWith('requests.') && name.includes('/')
}

export function isTrackedKind(def: Pick<ResourceDef, 'group' | 'plural'>): boolean {
  return trackedKinds.some((k) => k.group === def.group && k.plural === def.plural)
}
