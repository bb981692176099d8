import { z } from 'zod'

/**
 * The shapes of the spec fields kind validation reads (zod). A field of the wrong JSON type reads
 * as absent: decoding, not validation, is where upstream rejects those.
 */

// Shapes of the fields validated here. A field of the wrong JSON type reads as absent: decoding,
// not validation, is where upstream rejects those.

export const optional = <T extends z.ZodType>(t: T) => t.optional().catch(undefined)
export const str = optional(z.string())
export const num = optional(z.number())
export const bool = optional(z.boolean())
export const stringMap = z.record(z.string(), z.string()).nullish().catch(undefined)
export const intOrString = optional(z.union([z.number(), z.string()]))

export const objectMeta = z.looseObject({
  name: str,
  uid: str,
  labels: stringMap,
  annotations: stringMap,
})

export const containerPort = z.looseObject({
  name: str,
  containerPort: num,
  hostPort: num,
  hostIP: str,
  protocol: str,
})
export const container = z.looseObject({
  name: str,
  image: str,
  imagePullPolicy: str,
  terminationMessagePolicy: str,
  restartPolicy: str,
  ports: optional(z.array(containerPort)),
  volumeMounts: optional(z.array(z.looseObject({ name: str, mountPath: str }))),
})
export const podSpec = z.looseObject({
  containers: optional(z.array(container)),
  initContainers: optional(z.array(container)),
  restartPolicy: str,
  dnsPolicy: str,
  nodeSelector: stringMap,
  serviceAccountName: str,
  nodeName: str,
  activeDeadlineSeconds: num,
  hostname: str,
  subdomain: str,
  priorityClassName: str,
  volumes: optional(z.array(z.looseObject({ name: str }))),
  tolerations: optional(
    z.array(
      z.looseObject({ key: str, operator: str, value: str, effect: str, tolerationSeconds: num }),
    ),
  ),
})
export const podTemplate = z.looseObject({
  metadata: optional(objectMeta),
  spec: optional(podSpec),
})

export const selectorRequirement = z.looseObject({
  key: z.string().catch(''),
  operator: z.string().catch(''),
  values: z.array(z.string()).nullish().catch(undefined),
})
export const labelSelector = z
  .looseObject({
    matchLabels: stringMap,
    matchExpressions: z.array(selectorRequirement).nullish().catch(undefined),
  })
  .nullish()
  .catch(undefined)

export const deploymentSpec = z.looseObject({
  replicas: num,
  selector: labelSelector,
  template: optional(podTemplate),
  strategy: optional(
    z.looseObject({
      type: str,
      rollingUpdate: z
        .looseObject({ maxUnavailable: intOrString, maxSurge: intOrString })
        .nullish()
        .catch(undefined),
    }),
  ),
  minReadySeconds: num,
  revisionHistoryLimit: num,
  progressDeadlineSeconds: num,
})
export const replicaSetSpec = z.looseObject({
  replicas: num,
  minReadySeconds: num,
  selector: labelSelector,
  template: optional(podTemplate),
})
export const daemonSetSpec = z.looseObject({
  selector: labelSelector,
  template: optional(podTemplate),
  minReadySeconds: num,
  revisionHistoryLimit: num,
  updateStrategy: optional(
    z.looseObject({
      type: str,
      rollingUpdate: z
        .looseObject({ maxUnavailable: intOrString, maxSurge: intOrString })
        .nullish()
        .catch(undefined),
    }),
  ),
})
export const statefulSetSpec = z.looseObject({
  replicas: num,
  minReadySeconds: num,
  podManagementPolicy: str,
  selector: labelSelector,
  template: optional(podTemplate),
  updateStrategy: optional(
    z.looseObject({
      type: str,
      rollingUpdate: z
        .looseObject({ partition: num, maxUnavailable: intOrString })
        .nullish()
        .catch(undefined),
    }),
  ),
})
export const replicationControllerSpec = z.looseObject({
  replicas: num,
  minReadySeconds: num,
  selector: stringMap,
  template: podTemplate.nullish().catch(undefined),
})
export const jobSpec = z.looseObject({
  parallelism: num,
  completions: num,
  activeDeadlineSeconds: num,
  backoffLimit: num,
  ttlSecondsAfterFinished: num,
  completionMode: str,
  manualSelector: bool,
  selector: labelSelector,
  template: optional(podTemplate),
})
export const cronJobSpec = z.looseObject({
  schedule: str,
  startingDeadlineSeconds: num,
  concurrencyPolicy: str,
  successfulJobsHistoryLimit: num,
  failedJobsHistoryLimit: num,
  jobTemplate: optional(z.looseObject({ spec: optional(jobSpec) })),
})
export const servicePort = z.looseObject({
  name: str,
  protocol: str,
  appProtocol: str,
  port: num,
  targetPort: intOrString,
  nodePort: num,
})
export const serviceSpec = z.looseObject({
  type: str,
  clusterIP: str,
  clusterIPs: optional(z.array(z.string())),
  externalName: str,
  sessionAffinity: str,
  selector: stringMap,
  ports: optional(z.array(servicePort)),
})

export type PodSpec = z.infer<typeof podSpec>
export type Container = z.infer<typeof container>
export type PodTemplate = z.infer<typeof podTemplate>
export type MetaSelector = z.infer<typeof labelSelector>
export type SelectorRequirement = z.infer<typeof selectorRequirement>
export type JobSpec = z.infer<typeof jobSpec>
export type IntOrString = number | string

export function read<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const parsed = schema.safeParse(value ?? {})
  return parsed.success ? parsed.data : schema.parse({})
}
