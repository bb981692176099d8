/** The batch/v1 kinds' strategies. */
import { asRecord } from '../../apimachinery/json-value'
import type { KindStrategy } from '../kind-strategy'
import { templatePodSpecs } from '../pod-spec-defaults'
import { validateCronJob, validateJob } from '../validation/batch'
import { defaultCronJobSpec, defaultJobSelector, defaultJobSpec } from './defaults'

/** By resource. */
export const batchStrategies: Record<string, KindStrategy> = {
  jobs: {
    podSpecs: (obj) => templatePodSpecs(asRecord(obj.spec)),
    defaults: (obj) => {
      defaultJobSelector(obj)
      defaultJobSpec(asRecord(obj.spec))
    },
    validate: validateJob,
  },
  cronjobs: {
    podSpecs: (obj) => templatePodSpecs(asRecord(asRecord(asRecord(obj.spec).jobTemplate).spec)),
    defaults: (obj) => defaultCronJobSpec(asRecord(obj.spec)),
    validate: validateCronJob,
  },
}
