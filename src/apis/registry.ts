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

const apps = (
  kind: string,
  plural: string,
  shortNames: string[],
  subresources: Subresource[],
): ResourceDef => ({
  group: 'apps',
  version: 'v1',
  kind,
  plural,
  singular: kind.toLowerCase(),
  namespaced: true,
  shortNames,
  categories: ['all'],
  subresources,
  generation: true,
})

export const rbacGroup = 'rbac.authorization.k8s.io'
export const admissionGroup = 'admissionregistration.k8s.io'

const podSubresources = [
  { name: 'binding', kind: 'Binding', verbs: ['create'] },
  { name: 'ephemeralcontainers', kind: 'Pod', verbs: ['get', 'patch', 'update'] },
  { name: 'eviction', kind: 'Eviction', group: 'policy', version: 'v1', verbs: ['create'] },
  { name: 'log', kind: 'Pod', verbs: ['get'] },
  { name: 'exec', kind: 'PodExecOptions', verbs: ['create', 'get'] },
  { name: 'attach', kind: 'PodAttachOptions', verbs: ['create', 'get'] },
  { name: 'portforward', kind: 'PodPortForwardOptions', verbs: ['create', 'get'] },
  { name: 'proxy', kind: 'PodProxyOptions', verbs: ['create', 'delete', 'get', 'patch', 'update'] },
]

/** Every built-in resource, in discovery order (kubectl resolves names in this order). */
export const builtinResources: ResourceDef[] = [
  {
    group: '',
    version: 'v1',
    kind: 'Pod',
    plural: 'pods',
    singular: 'pod',
    namespaced: true,
    shortNames: ['po'],
    categories: ['all'],
    subresources: ['status'],
    extraSubresources: podSubresources,
  },
  {
    group: '',
    version: 'v1',
    kind: 'Service',
    plural: 'services',
    singular: 'service',
    namespaced: true,
    shortNames: ['svc'],
    categories: ['all'],
    subresources: ['status'],
    extraSubresources: [
      {
        name: 'proxy',
        kind: 'ServiceProxyOptions',
        verbs: ['create', 'delete', 'get', 'patch', 'update'],
      },
    ],
  },
  {
    group: '',
    version: 'v1',
    kind: 'Endpoints',
    plural: 'endpoints',
    singular: 'endpoints',
    namespaced: true,
    shortNames: ['ep'],
    subresources: [],
  },
  {
    group: '',
    version: 'v1',
    kind: 'ConfigMap',
    plural: 'configmaps',
    singular: 'configmap',
    namespaced: true,
    shortNames: ['cm'],
    subresources: [],
  },
  {
    group: '',
    version: 'v1',
    kind: 'Secret',
    plural: 'secrets',
    singular: 'secret',
    namespaced: true,
    subresources: [],
  },
  {
    group: '',
    version: 'v1',
    kind: 'Event',
    plural: 'events',
    singular: 'event',
    namespaced: true,
    shortNames: ['ev'],
    subresources: [],
  },
  {
    group: '',
    version: 'v1',
    kind: 'ServiceAccount',
    plural: 'serviceaccounts',
    singular: 'serviceaccount',
    namespaced: true,
    shortNames: ['sa'],
    subresources: [],
    extraSubresources: [
      {
        name: 'token',
        kind: 'TokenRequest',
        group: 'authentication.k8s.io',
        version: 'v1',
        verbs: ['create'],
      },
    ],
  },
  {
    group: '',
    version: 'v1',
    kind: 'PersistentVolumeClaim',
    plural: 'persistentvolumeclaims',
    singular: 'persistentvolumeclaim',
    namespaced: true,
    shortNames: ['pvc'],
    subresources: ['status'],
  },
  {
    group: '',
    version: 'v1',
    kind: 'PersistentVolume',
    plural: 'persistentvolumes',
    singular: 'persistentvolume',
    namespaced: false,
    shortNames: ['pv'],
    subresources: ['status'],
  },
  {
    group: '',
    version: 'v1',
    kind: 'Namespace',
    plural: 'namespaces',
    singular: 'namespace',
    namespaced: false,
    shortNames: ['ns'],
    subresources: ['status'],
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    extraSubresources: [{ name: 'finalize', kind: 'Namespace', verbs: ['update'] }],
  },
  {
    group: '',
    version: 'v1',
    kind: 'ResourceQuota',
    plural: 'resourcequotas',
    singular: 'resourcequota',
    namespaced: true,
    shortNames: ['quota'],
    subresources: ['status'],
  },
  {
    group: '',
    version: 'v1',
    kind: 'LimitRange',
    plural: 'limitranges',
    singular: 'limitrange',
    namespaced: true,
    shortNames: ['limits'],
    subresources: [],
  },
  {
    group: '',
    version: 'v1',
    kind: 'Node',
    plural: 'nodes',
    singular: 'node',
    namespaced: false,
    shortNames: ['no'],
    subresources: ['status'],
  },
  {
    group: '',
    version: 'v1',
    kind: 'ComponentStatus',
    plural: 'componentstatuses',
    singular: 'componentstatus',
    namespaced: false,
    shortNames: ['cs'],
    subresources: [],
    verbs: ['get', 'list'],
    virtual: true,
  },
  {
    group: '',
    version: 'v1',
    kind: 'ReplicationController',
    plural: 'replicationcontrollers',
    singular: 'replicationcontroller',
    namespaced: true,
    shortNames: ['rc'],
    categories: ['all'],
    subresources: ['status', 'scale'],
    generation: true,
  },
  {
    group: '',
    version: 'v1',
    kind: 'PodTemplate',
    plural: 'podtemplates',
    singular: 'podtemplate',
    namespaced: true,
    subresources: [],
  },
  apps('Deployment', 'deployments', ['deploy'], ['status', 'scale']),
  apps('ReplicaSet', 'replicasets', ['rs'], ['status', 'scale']),
  apps('StatefulSet', 'statefulsets', ['sts'], ['status', 'scale']),
  apps('DaemonSet', 'daemonsets', ['ds'], ['status']),
  {
    group: 'apps',
    version: 'v1',
    kind: 'ControllerRevision',
    plural: 'controllerrevisions',
    singular: 'controllerrevision',
    namespaced: true,
    subresources: [],
  },
  {
    group: 'batch',
    version: 'v1',
    kind: 'Job',
    plural: 'jobs',
    singular: 'job',
    namespaced: true,
    categories: ['all'],
    subresources: ['status'],
    generation: true,
  },
  {
    group: 'batch',
    version: 'v1',
    kind: 'CronJob',
    plural: 'cronjobs',
    singular: 'cronjob',
    namespaced: true,
    shortNames: ['cj'],
    categories: ['all'],
    subresources: ['status'],
    generation: true,
  },
  {
    group: 'autoscaling',
    version: 'v2',
    kind: 'HorizontalPodAutoscaler',
    plural: 'horizontalpodautoscalers',
    singular: 'horizontalpodautoscaler',
    namespaced: true,
    shortNames: ['hpa'],
    categories: ['all'],
    subresources: ['status'],
    generation: true,
  },
  // autoscaling/v1 is a view of the same objects, served by its own handler (src/api/views/hpa-v1.ts).
  {
    group: 'autoscaling',
    version: 'v1',
    kind: 'HorizontalPodAutoscaler',
    plural: 'horizontalpodautoscalers',
    singular: 'horizontalpodautoscaler',
    namespaced: true,
    shortNames: ['hpa'],
    categories: ['all'],
    subresources: ['status'],
    virtual: true,
  },
  {
    group: 'policy',
    version: 'v1',
    kind: 'PodDisruptionBudget',
    plural: 'poddisruptionbudgets',
    singular: 'poddisruptionbudget',
    namespaced: true,
    shortNames: ['pdb'],
    subresources: ['status'],
    generation: true,
  },
  {
    group: 'coordination.k8s.io',
    version: 'v1',
    kind: 'Lease',
    plural: 'leases',
    singular: 'lease',
    namespaced: true,
    subresources: [],
  },
  {
    group: 'discovery.k8s.io',
    version: 'v1',
    kind: 'EndpointSlice',
    plural: 'endpointslices',
    singular: 'endpointslice',
    namespaced: true,
    subresources: [],
  },
  {
    group: 'networking.k8s.io',
    version: 'v1',
    kind: 'Ingress',
    plural: 'ingresses',
    singular: 'ingress',
    namespaced: true,
    shortNames: ['ing'],
    subresources: ['status'],
    generation: true,
  },
  {
    group: 'networking.k8s.io',
    version: 'v1',
    kind: 'IngressClass',
    plural: 'ingressclasses',
    singular: 'ingressclass',
    namespaced: false,
    subresources: [],
    generation: true,
  },
  {
    group: 'networking.k8s.io',
    version: 'v1',
    kind: 'NetworkPolicy',
    plural: 'networkpolicies',
    singular: 'networkpolicy',
    namespaced: true,
    shortNames: ['netpol'],
    subresources: [],
    generation: true,
  },
  {
    group: 'events.k8s.io',
    version: 'v1',
    kind: 'Event',
    plural: 'events',
    singular: 'event',
    namespaced: true,
    shortNames: ['ev'],
    subresources: [],
    virtual: true,
  },
  {
    group: 'scheduling.k8s.io',
    version: 'v1',
    kind: 'PriorityClass',
    plural: 'priorityclasses',
    singular: 'priorityclass',
    namespaced: false,
    shortNames: ['pc'],
    subresources: [],
  },
  {
    group: 'node.k8s.io',
    version: 'v1',
    kind: 'RuntimeClass',
    plural: 'runtimeclasses',
    singular: 'runtimeclass',
    namespaced: false,
    subresources: [],
  },
  {
    group: 'storage.k8s.io',
    version: 'v1',
    kind: 'StorageClass',
    plural: 'storageclasses',
    singular: 'storageclass',
    namespaced: false,
    shortNames: ['sc'],
    subresources: [],
  },
  {
    group: 'storage.k8s.io',
    version: 'v1',
    kind: 'CSIDriver',
    plural: 'csidrivers',
    singular: 'csidriver',
    namespaced: false,
    subresources: [],
  },
  {
    group: 'apiextensions.k8s.io',
    version: 'v1',
    kind: 'CustomResourceDefinition',
    plural: 'customresourcedefinitions',
    singular: 'customresourcedefinition',
    namespaced: false,
    shortNames: ['crd', 'crds'],
    categories: ['api-extensions'],
    subresources: ['status'],
    generation: true,
  },
  {
    group: 'apiregistration.k8s.io',
    version: 'v1',
    kind: 'APIService',
    plural: 'apiservices',
    singular: 'apiservice',
    namespaced: false,
    categories: ['api-extensions'],
    subresources: ['status'],
  },
  {
    group: 'certificates.k8s.io',
    version: 'v1',
    kind: 'CertificateSigningRequest',
    plural: 'certificatesigningrequests',
    singular: 'certificatesigningrequest',
    namespaced: false,
    shortNames: ['csr'],
    subresources: ['status', 'approval'],
  },
  webhookConfiguration('MutatingWebhookConfiguration'),
  webhookConfiguration('ValidatingWebhookConfiguration'),
  {
    group: admissionGroup,
    version: 'v1',
    kind: 'ValidatingAdmissionPolicy',
    plural: 'validatingadmissionpolicies',
    singular: 'validatingadmissionpolicy',
    namespaced: false,
    categories: ['api-extensions'],
    subresources: ['status'],
    generation: true,
  },
  {
    group: admissionGroup,
    version: 'v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    plural: 'validatingadmissionpolicybindings',
    singular: 'validatingadmissionpolicybinding',
    namespaced: false,
    categories: ['api-extensions'],
    subresources: [],
    generation: true,
  },
  {
    group: 'flowcontrol.apiserver.k8s.io',
    version: 'v1',
    kind: 'FlowSchema',
    plural: 'flowschemas',
    singular: 'flowschema',
    namespaced: false,
    subresources: ['status'],
    generation: true,
  },
  {
    group: 'flowcontrol.apiserver.k8s.io',
    version: 'v1',
    kind: 'PriorityLevelConfiguration',
    plural: 'prioritylevelconfigurations',
    singular: 'prioritylevelconfiguration',
    namespaced: false,
    subresources: ['status'],
    generation: true,
  },
  rbac('Role', true),
  rbac('RoleBinding', true),
  rbac('ClusterRole', false),
  rbac('ClusterRoleBinding', false),
  review('authentication.k8s.io', 'SelfSubjectReview'),
  review('authorization.k8s.io', 'SelfSubjectAccessReview'),
  review('authorization.k8s.io', 'SelfSubjectRulesReview'),
  review('authorization.k8s.io', 'SubjectAccessReview'),
  review('authorization.k8s.io', 'LocalSubjectAccessReview', true),
]

/** An rbac.authorization.k8s.io/v1 kind. */
function rbac(kind: string, namespaced: boolean): ResourceDef {
  const singular = kind.toLowerCase()
  return {
    group: rbacGroup,
    version: 'v1',
    kind,
    plural: `${singular}s`,
    singular,
    namespaced,
    subresources: [],
  }
}

/** An admissionregistration.k8s.io/v1 webhook configuration. */
function webhookConfiguration(kind: string): ResourceDef {
  const singular = kind.toLowerCase()
  return {
    group: admissionGroup,
    version: 'v1',
    kind,
    plural: `${singular}s`,
    singular,
    namespaced: false,
    categories: ['api-extensions'],
    subresources: [],
    generation: true,
  }
}

/** A create-only review kind (`kubectl auth whoami|can-i`), answered from the request alone. */
function review(group: string, kind: string, namespaced = false): ResourceDef {
  const singular = kind.toLowerCase()
  return {
    group,
    version: 'v1',
    kind,
    plural: `${singular}s`,
    singular,
    namespaced,
    subresources: [],
    verbs: ['create'],
    virtual: true,
  }
}

/** The resources kept in stores: every built-in one but the virtual review kinds. */
export const storedResources: ResourceDef[] = builtinResources.filter((d) => !d.virtual)

/** `apps/v1` or `v1` */
export function apiVersionOf(def: Pick<ResourceDef, 'group' | 'version'>): string {
  return def.group ? `${def.group}/${def.version}` : def.version
}

const builtinStoreNames = new Set(builtinResources.map((d) => `${d.group || 'core'}/${d.plural}`))

/**
 * The name of the store instance holding a resource: one Durable Object per group/resource. A
 * custom resource never shares a built-in resource's store, whatever group and plural its CRD
 * declares: one that would is kept under a name (`custom:` and a DNS group cannot hold a colon)
 * no built-in resource has.
 */
export function storeName(def: Pick<ResourceDef, 'group' | 'plural' | 'custom'>): string {
  const name = `${def.group || 'core'}/${def.plural}`
  return def.custom && builtinStoreNames.has(name) ? `custom:${name}` : name
}

const byPath = new Map(storedResources.map((d) => [`${d.group}/${d.version}/${d.plural}`, d]))

/** A stored resource by group, version and plural (never a virtual one). */
export function findResource(
  group: string,
  version: string,
  plural: string,
): ResourceDef | undefined {
  return byPath.get(`${group}/${version}/${plural}`)
}

export function groupVersions(
  resources: readonly ResourceDef[] = builtinResources,
): { group: string; version: string }[] {
  const seen = new Map<string, { group: string; version: string }>()
  for (const d of resources)
    seen.set(`${d.group}/${d.version}`, { group: d.group, version: d.version })
  return [...seen.values()]
}

/** The CustomResourceDefinition resource, which serves the custom ones. */
export const crdResource = builtinResources.find((d) => d.kind === 'CustomResourceDefinition')!
