import type { Env } from '../env'
import type { ControllerDefinition } from './runtime/types'
import { schedulerController } from './scheduler'
import { nodeLifecycleController, parseGracePeriod } from './node-lifecycle'
import { garbageCollectedResources, garbageCollector } from './garbage-collector'
import { namespaceController, namespacedResources } from './namespace'
import { podGcController } from './pod-gc'
import { replicaSetController } from './replicaset'
import { deploymentController } from './deployment'
import { statefulSetController } from './statefulset'
import { daemonSetController } from './daemonset'
import { jobController } from './job'
import { cronJobController } from './cronjob'
import { endpointsController } from './endpoints'
import { endpointSliceController } from './endpointslice'
import { crdCleanupController } from './crd-cleanup'

/** Every controller, by name. */
const controllers: Record<string, (env: Env) => ControllerDefinition> = {
  scheduler: () => schedulerController(),
  'node-lifecycle': (env) => nodeLifecycleController({ gracePeriodMs: parseGracePeriod(env.EDGEPLANE_NODE_MONITOR_GRACE_PERIOD) }),
  'garbage-collector': () => garbageCollector([...garbageCollectedResources]),
  namespace: () => namespaceController(namespacedResources()),
  'pod-gc': () => podGcController(),
  replicaset: () => replicaSetController(),
  deployment: () => deploymentController(),
  statefulset: () => statefulSetController(),
  daemonset: () => daemonSetController(),
  job: () => jobController(),
  cronjob: () => cronJobController(),
  endpoints: () => endpointsController(),
  endpointslice: () => endpointSliceController(),
  'crd-cleanup': () => crdCleanupController(),
}

export function controllerNames(): string[] {
  return Object.keys(controllers)
}

export function controllerDefinition(name: string, env: Env): ControllerDefinition {
  const build = controllers[name]
  if (!build) throw new Error(`unknown controller ${name}`)
  return build(env)
}

let watchers: Map<string, string[]> | undefined

/** The controllers to notify when the store named `group/plural` (e.g. `core/pods`) changes. */
export function watchersOf(storeName: string): string[] {
  if (!watchers) {
    watchers = new Map()
    for (const [name, build] of Object.entries(controllers)) {
      for (const r of build({} as Env).watches) {
        const key = `${r.group || 'core'}/${r.plural}`
        watchers.set(key, [...(watchers.get(key) ?? []), name])
      }
    }
  }
  return watchers.get(storeName) ?? []
}
