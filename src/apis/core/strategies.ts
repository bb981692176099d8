/** The core/v1 kinds' strategies, by resource. */
import { asRecord } from '../../apimachinery/json-value'
import { labelSelectorString, selectorFromSet } from '../../apimachinery/labels'
import type { KindStrategy } from '../kind-strategy'
import { templatePodSpecs } from '../pod-spec-defaults'
import { defaultReplicationController } from '../replication-controller'
import { defaultLimitRange, validateLimitRange } from '../limit-range/object'
import { validateResourceQuota } from '../quota/validate'
import { persistentVolumeClaimStrategy, persistentVolumeStrategy } from '../storage/strategies'
import { validateReplicationController } from '../validation/apps'
import { validateConfigMap } from '../validation/core'
import { validatePodTemplateSpec } from '../validation/pod-spec'
import { eventStrategy } from './events'
import { namespaceStrategy } from './namespaces'
import { nodeStrategy } from './nodes'
import { podStrategy } from './pods'
import { secretStrategy } from './secrets'
import { serviceStrategy } from './services'

const replicationControllerStrategy: KindStrategy = {
  podSpecs: (obj) => templatePodSpecs(asRecord(obj.spec)),
  defaults: defaultReplicationController,
  validate: validateReplicationController,
  // A ReplicationController's selector is a plain label map.
  scaleSelector: (obj) => {
    const selector = asRecord(obj.spec).selector
    return selector ? labelSelectorString(selectorFromSet(selector as Record<string, string>)) : ''
  },
}

export const coreStrategies: Record<string, KindStrategy> = {
  pods: podStrategy,
  services: serviceStrategy,
  endpoints: {},
  configmaps: { validate: validateConfigMap },
  secrets: secretStrategy,
  events: eventStrategy,
  serviceaccounts: {},
  persistentvolumeclaims: persistentVolumeClaimStrategy,
  persistentvolumes: persistentVolumeStrategy,
  namespaces: namespaceStrategy,
  resourcequotas: { validate: validateResourceQuota },
  limitranges: { defaults: defaultLimitRange, validate: validateLimitRange },
  nodes: nodeStrategy,
  replicationcontrollers: replicationControllerStrategy,
  podtemplates: {
    podSpecs: (obj) => templatePodSpecs(obj),
    validate: (obj) => validatePodTemplateSpec(obj.template, 'template'),
  },
}
