/**
 * Structural schema of core/v1 (k8s.io/api/core/v1) as of Kubernetes v1.32: the served kinds and
 * every struct they embed, including those other groups embed (PodTemplateSpec,
 * PersistentVolumeClaim, ObjectReference), merged from one file per kind or small group of kinds.
 */
import type { SchemaSet } from '../../../apimachinery/schema-types'
import { coreV1ConfigData } from './config-map-secret'
import { coreV1Container } from './container'
import { coreV1Event } from './event'
import { coreV1Namespace } from './namespace'
import { coreV1Node } from './node'
import { coreV1References } from './object-reference'
import { coreV1PersistentVolumeClaim } from './persistent-volume-claim'
import { coreV1Storage } from './persistent-volume'
import { coreV1Pod } from './pod'
import { coreV1PodScheduling } from './pod-scheduling'
import { coreV1PodStatus } from './pod-status'
import { coreV1Quota } from './quota'
import { coreV1Replication } from './replication-controller'
import { coreV1SecurityContext } from './security-context'
import { coreV1Service } from './service'
import { coreV1ServiceAccount } from './service-account'
import { coreV1Volume } from './volume'
import { coreV1CloudVolumes } from './volume-cloud'
import { coreV1NetworkVolumes } from './volume-network'
import { coreV1ProjectedVolumes } from './volume-projected'

export const coreV1: SchemaSet = {
  ...coreV1Namespace,
  ...coreV1Pod,
  ...coreV1PodScheduling,
  ...coreV1Container,
  ...coreV1SecurityContext,
  ...coreV1Volume,
  ...coreV1ProjectedVolumes,
  ...coreV1NetworkVolumes,
  ...coreV1CloudVolumes,
  ...coreV1PodStatus,
  ...coreV1PersistentVolumeClaim,
  ...coreV1Node,
  ...coreV1Service,
  ...coreV1ConfigData,
  ...coreV1Event,
  ...coreV1ServiceAccount,
  ...coreV1References,
  ...coreV1Quota,
  ...coreV1Replication,
  ...coreV1Storage,
}
