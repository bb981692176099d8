/**
 * meta.k8s.io/v1 Table responses: what `kubectl get` asks for and prints as is. Every row carries
 * all columns, wide ones included; kubectl hides priority > 0 columns itself unless `-o wide`.
 */
import type { KubeObject } from '../apimachinery/types'
import { cronJobPrinter, jobPrinter } from './batch'
import { genericPrinter, type ColumnDefinition, type Printer } from './columns'
import {
  configMapPrinter,
  crdPrinter,
  leasePrinter,
  namespacePrinter,
  secretPrinter,
  serviceAccountPrinter,
} from './config'
import { eventPrinter } from './event'
import { roleBindingPrinter, rolePrinter } from './rbac'
import { ingressClassPrinter, ingressPrinter } from './networking'
import {
  admissionPolicyBindingPrinter,
  admissionPolicyPrinter,
  webhookConfigurationPrinter,
} from './admissionregistration'
import { csrPrinter } from './certificates'
import { apiServicePrinter } from './apiregistration'
import { flowSchemaPrinter, priorityLevelPrinter } from './flowcontrol'
import { nodePrinter } from './node'
import {
  csiDriverPrinter,
  persistentVolumeClaimPrinter,
  persistentVolumePrinter,
  storageClassPrinter,
} from './storage'
import { networkPolicyPrinter } from './network-policy'
import { podPrinter } from './pod'
import {
  podTemplatePrinter,
  priorityClassPrinter,
  replicationControllerPrinter,
  runtimeClassPrinter,
} from './scheduling'
import { policyPrinters } from './policy'
import { horizontalPodAutoscalerPrinter } from './autoscaling'
import { endpointSlicePrinter, endpointsPrinter, servicePrinter } from './service'
import {
  controllerRevisionPrinter,
  daemonSetPrinter,
  deploymentPrinter,
  replicaSetPrinter,
  statefulSetPrinter,
} from './workloads'

/** Printers by `group/resource`, the core group being the empty string. */
const printers = new Map<string, Printer>([
  ['/pods', podPrinter],
  ['/nodes', nodePrinter],
  ['/services', servicePrinter],
  ['/endpoints', endpointsPrinter],
  ['/namespaces', namespacePrinter],
  ['/configmaps', configMapPrinter],
  ['/secrets', secretPrinter],
  ['/serviceaccounts', serviceAccountPrinter],
  ['/events', eventPrinter],
  ['/replicationcontrollers', replicationControllerPrinter],
  ['/podtemplates', podTemplatePrinter],
  ['scheduling.k8s.io/priorityclasses', priorityClassPrinter],
  ['node.k8s.io/runtimeclasses', runtimeClassPrinter],
  ['/persistentvolumes', persistentVolumePrinter],
  ['/persistentvolumeclaims', persistentVolumeClaimPrinter],
  ['storage.k8s.io/storageclasses', storageClassPrinter],
  ['storage.k8s.io/csidrivers', csiDriverPrinter],
  ['apps/deployments', deploymentPrinter],
  ['apps/replicasets', replicaSetPrinter],
  ['apps/statefulsets', statefulSetPrinter],
  ['apps/daemonsets', daemonSetPrinter],
  ['apps/controllerrevisions', controllerRevisionPrinter],
  ['batch/jobs', jobPrinter],
  ['batch/cronjobs', cronJobPrinter],
  ['autoscaling/horizontalpodautoscalers', horizontalPodAutoscalerPrinter],
  ['discovery.k8s.io/endpointslices', endpointSlicePrinter],
  ['coordination.k8s.io/leases', leasePrinter],
  ['networking.k8s.io/ingresses', ingressPrinter],
  ['networking.k8s.io/ingressclasses', ingressClassPrinter],
  ['networking.k8s.io/networkpolicies', networkPolicyPrinter],
  ['events.k8s.io/events', eventPrinter],
  ['apiextensions.k8s.io/customresourcedefinitions', crdPrinter],
  ['rbac.authorization.k8s.io/roles', rolePrinter],
  ['rbac.authorization.k8s.io/clusterroles', rolePrinter],
  ['rbac.authorization.k8s.io/rolebindings', roleBindingPrinter],
  ['rbac.authorization.k8s.io/clusterrolebindings', roleBindingPrinter],
  ['admissionregistration.k8s.io/mutatingwebhookconfigurations', webhookConfigurationPrinter],
  ['admissionregistration.k8s.io/validatingwebhookconfigurations', webhookConfigurationPrinter],
  ['admissionregistration.k8s.io/validatingadmissionpolicies', admissionPolicyPrinter],
  ['admissionregistration.k8s.io/validatingadmissionpolicybindings', admissionPolicyBindingPrinter],
  ...policyPrinters(),
  ['certificates.k8s.io/certificatesigningrequests', csrPrinter],
  ['apiregistration.k8s.io/apiservices', apiServicePrinter],
  ['flowcontrol.apiserver.k8s.io/flowschemas', flowSchemaPrinter],
  ['flowcontrol.apiserver.k8s.io/prioritylevelconfigurations', priorityLevelPrinter],
])

/** The printer for a resource (plural name), or the Name/Age printer for any other. */
export function printerFor(group: string, resource: string): Printer {
  return printers.get(`${group}/${resource}`) ?? genericPrinter
}

/** Whether the resource has columns of its own rather than the generic Name/Age pair. */
export function hasOwnPrinter(group: string, resource: string): boolean {
  return printers.has(`${group}/${resource}`)
}

export type IncludeObject = 'None' | 'Metadata' | 'Object'

export interface TableOptions {
  group: string
  resource: string
  /** the columns to print instead of the resource's own (a custom resource's) */
  printer?: Printer
  /** what each row's `object` holds; `Metadata` when the request does not say */
  includeObject?: IncludeObject
  /** milliseconds since the epoch, the reference point for ages and durations */
  now: number
  resourceVersion?: string
  continue?: string
  remainingItemCount?: number
  /** leave out columnDefinitions, as in watch events after the first */
  omitColumns?: boolean
}

export interface PartialObjectMetadata {
  kind: 'PartialObjectMetadata'
  apiVersion: 'meta.k8s.io/v1'
  metadata: KubeObject['metadata']
}

export interface TableRow {
  cells: unknown[]
  object?: KubeObject | PartialObjectMetadata
}

export interface TableListMeta {
  resourceVersion?: string
  continue?: string
  remainingItemCount?: number
}

export interface Table {
  kind: 'Table'
  apiVersion: 'meta.k8s.io/v1'
  metadata: TableListMeta
  columnDefinitions?: ColumnDefinition[]
  rows: TableRow[]
}

function rowObject(obj: KubeObject, include: IncludeObject): TableRow['object'] {
  switch (include) {
    case 'None':
      return undefined
    case 'Object':
      return obj
    case 'Metadata':
      return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata }
  }
}

export function buildTable(objects: KubeObject[], opts: TableOptions): Table {
  const printer = opts.printer ?? printerFor(opts.group, opts.resource)
  const include = opts.includeObject ?? 'Metadata'

  const metadata: TableListMeta = {}
  if (opts.resourceVersion !== undefined) metadata.resourceVersion = opts.resourceVersion
  if (opts.continue) metadata.continue = opts.continue
  if (opts.remainingItemCount !== undefined) metadata.remainingItemCount = opts.remainingItemCount

  const rows = (printer.order ? printer.order(objects) : objects).map((obj): TableRow => {
    const row: TableRow = { cells: printer.cells(obj, opts.now) }
    const object = rowObject(obj, include)
    if (object !== undefined) row.object = object
    return row
  })

  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata,
    // Copies, so a caller editing one response cannot change the shared definitions.
    ...(opts.omitColumns ? {} : { columnDefinitions: printer.columns.map((c) => ({ ...c })) }),
    rows,
  }
}
