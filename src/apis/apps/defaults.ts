/** apps/v1 defaulting, as upstream's SetDefaults_Deployment, _StatefulSet and _DaemonSet. */
import type { KubeObject } from '../../apimachinery/types'
import { asRecord, type Json } from '../../apimachinery/json-value'

/** spec.replicas of a Deployment, ReplicaSet or StatefulSet: 1 when unset. */
export function defaultReplicas(obj: KubeObject): void {
  const spec = asRecord(obj.spec)
  if (spec.replicas === undefined || spec.replicas === null) obj.spec = { ...spec, replicas: 1 }
}

/** A Deployment's rolling update strategy, history limit and progress deadline. */
export function defaultDeploymentSpec(spec: Json): void {
  const strategy = asRecord(spec.strategy)
  if (!strategy.type) strategy.type = 'RollingUpdate'
  if (strategy.type === 'RollingUpdate') {
    const ru = asRecord(strategy.rollingUpdate)
    strategy.rollingUpdate = {
      maxUnavailable: ru.maxUnavailable ?? '25%',
      maxSurge: ru.maxSurge ?? '25%',
    }
  }
  spec.strategy = strategy
  spec.revisionHistoryLimit ??= 10
  spec.progressDeadlineSeconds ??= 600
}

/** apps/v1 StatefulSet defaults, as upstream's SetDefaults_StatefulSet. */
export function defaultStatefulSetSpec(spec: Json): void {
  // serviceName has no omitempty: upstream writes "" when it is unset.
  spec.serviceName ??= ''
  spec.podManagementPolicy ??= 'OrderedReady'
  const strategy = asRecord(spec.updateStrategy)
  strategy.type ??= 'RollingUpdate'
  if (strategy.type === 'RollingUpdate')
    strategy.rollingUpdate = { partition: 0, ...asRecord(strategy.rollingUpdate) }
  spec.updateStrategy = strategy
  spec.revisionHistoryLimit ??= 10
  spec.persistentVolumeClaimRetentionPolicy = {
    whenDeleted: 'Retain',
    whenScaled: 'Retain',
    ...asRecord(spec.persistentVolumeClaimRetentionPolicy),
  }
}

/** apps/v1 DaemonSet defaults, as upstream's SetDefaults_DaemonSet. */
export function defaultDaemonSetSpec(spec: Json): void {
  const strategy = asRecord(spec.updateStrategy)
  strategy.type ??= 'RollingUpdate'
  if (strategy.type === 'RollingUpdate')
    strategy.rollingUpdate = { maxUnavailable: 1, maxSurge: 0, ...asRecord(strategy.rollingUpdate) }
  spec.updateStrategy = strategy
  spec.revisionHistoryLimit ??= 10
}
