import { builtinResources } from '../../apis/registry'
import type { ResourceRef } from '../runtime/types'

const ref = (group: string, plural: string): ResourceRef => {
  const def = builtinResources.find((d) => d.group === group && d.plural === plural)
  if (!def) throw new Error(`unknown resource ${group}/${plural}`)
  return Object.freeze({ group: def.group, version: def.version, plural: def.plural })
}

/**
 * The namespaced kinds that own or are owned by workloads, dependents before owners (the runner
 * syncs caches in this order; see `garbageCollector`). Events are left out: nothing owns them.
 */
export const garbageCollectedResources: readonly ResourceRef[] = Object.freeze([
  ref('', 'pods'),
  ref('discovery.k8s.io', 'endpointslices'),
  ref('', 'endpoints'),
  ref('apps', 'controllerrevisions'),
  ref('', 'configmaps'),
  ref('', 'secrets'),
  ref('apps', 'replicasets'),
  ref('', 'replicationcontrollers'),
  ref('batch', 'jobs'),
  ref('', 'services'),
  ref('apps', 'statefulsets'),
  ref('apps', 'daemonsets'),
  ref('apps', 'deployments'),
  ref('batch', 'cronjobs'),
])
