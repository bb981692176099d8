/** The apps/v1 kinds' strategies. */
import { asRecord } from '../../apimachinery/json-value'
import type { KindStrategy } from '../kind-strategy'
import { templatePodSpecs } from '../pod-spec-defaults'
import {
  validateDaemonSet,
  validateDeployment,
  validateReplicaSet,
  validateStatefulSet,
} from '../validation/apps'
import {
  validateDaemonSetStatus,
  validateDeploymentStatus,
  validateReplicaSetStatus,
  validateStatefulSetStatus,
} from '../validation/apps-status'
import {
  defaultDaemonSetSpec,
  defaultDeploymentSpec,
  defaultReplicas,
  defaultStatefulSetSpec,
} from './defaults'

const podSpecs: KindStrategy['podSpecs'] = (obj) => templatePodSpecs(asRecord(obj.spec))

/** By resource. */
export const appsStrategies: Record<string, KindStrategy> = {
  deployments: {
    podSpecs,
    defaults: (obj) => {
      defaultReplicas(obj)
      defaultDeploymentSpec(asRecord(obj.spec))
    },
    validate: validateDeployment,
    validateStatus: validateDeploymentStatus,
  },
  replicasets: {
    podSpecs,
    defaults: defaultReplicas,
    validate: validateReplicaSet,
    validateStatus: validateReplicaSetStatus,
  },
  statefulsets: {
    podSpecs,
    defaults: (obj) => {
      defaultStatefulSetSpec(asRecord(obj.spec))
      defaultReplicas(obj)
    },
    validate: validateStatefulSet,
    validateStatus: validateStatefulSetStatus,
  },
  daemonsets: {
    podSpecs,
    defaults: (obj) => defaultDaemonSetSpec(asRecord(obj.spec)),
    validate: validateDaemonSet,
    validateStatus: validateDaemonSetStatus,
  },
  controllerrevisions: {},
}
