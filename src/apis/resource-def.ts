import type { JSONSchemaProps } from './crd/schema'
/** One served resource: what discovery publishes and what the store and handlers need to know. */
export interface ResourceDef {
  group: string
  version: string
  kind: string
  /** the URL segment, e.g. `deployments` */
  plural: string
  singular: string
  namespaced: boolean
  shortNames?: string[]
  categories?: string[]
  /** `status` splits spec and status writes; `scale` serves autoscaling/v1 Scale */
  subresources: Subresource[]
  /** metadata.generation is tracked and bumped on spec changes */
  generation?: boolean
  /** subresources listed in discovery for fidelity but not served by the generic handlers */
  extraSubresources?: {
    name: string
    kind: string
    group?: string
    version?: string
    verbs: string[]
  }[]
  /** set when a CustomResourceDefinition serves the resource */
  custom?: CustomResource
  /** the verbs discovery lists; every verb when unset */
  verbs?: string[]
  /** never stored: a dedicated handler answers it (the create-only review kinds, componentstatuses) */
  virtual?: true
}

export type Subresource = 'status' | 'scale' | 'approval'

/** What a CustomResourceDefinition adds to a served version of its resource. */
export interface CustomResource {
  /** the CRD's name, `<plural>.<group>` */
  crd: string
  /** the version's openAPIV3Schema */
  schema?: JSONSchemaProps
  /** the version's additionalPrinterColumns */
  columns: PrinterColumn[]
  /** the version's scale subresource paths */
  scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string }
  /** the CRD is being deleted: no new objects */
  terminating: boolean
  /** the CRD has more than one version: objects are shown in the version asked for */
  multiVersion: boolean
}

export interface PrinterColumn {
  name: string
  type: string
  format?: string
  description?: string
  priority?: number
  jsonPath: string
}
