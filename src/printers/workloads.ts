/** Tables for the apps group: Deployment, ReplicaSet, StatefulSet, DaemonSet, ControllerRevision. */
import type { KubeObject } from '../apimachinery/types'
import {
  ageColumn,
  column,
  nameColumn,
  objectAge,
  objectName,
  type Printer,
  workloadColumns,
} from './columns'
import {
  containerCells,
  count,
  formatLabels,
  formatLabelSelector,
  list,
  selectorString,
  type ContainerLike,
  type LabelSelector,
} from './format'

interface PodTemplate {
  spec?: { containers?: ContainerLike[]; nodeSelector?: Record<string, string> }
}

interface Workload extends KubeObject {
  spec?: { replicas?: number; selector?: LabelSelector; template?: PodTemplate }
  status?: {
    replicas?: number
    readyReplicas?: number
    updatedReplicas?: number
    availableReplicas?: number
    desiredNumberScheduled?: number
    currentNumberScheduled?: number
    numberReady?: number
    updatedNumberScheduled?: number
    numberAvailable?: number
  }
}

/** spec.replicas defaults to 1 in the API, so an absent value means one replica. */
function desiredReplicas(obj: Workload): number {
  const replicas = obj.spec?.replicas
  return typeof replicas === 'number' ? replicas : 1
}

function templateContainers(obj: Workload): [string, string] {
  return containerCells(obj.spec?.template?.spec?.containers)
}

export const deploymentPrinter: Printer = {
  columns: workloadColumns(
    [
      column('Ready', 'string', 'Number of the pod with ready state'),
      column(
        'Up-to-date',
        'string',
        'Total number of pods targeted by the deployment that run the desired template.',
      ),
      column(
        'Available',
        'string',
        'Total number of available pods (ready for at least minReadySeconds).',
      ),
    ],
    'Label query over pods that should match the replica count.',
  ),
  cells(obj, now) {
    const d = obj as Workload
    const status = d.status ?? {}
    const [names, images] = templateContainers(d)
    // An unparsable selector is shown as such rather than failing the whole list.
    const selector = selectorString(d.spec?.selector) ?? '<invalid>'
    return [
      objectName(d),
      `${count(status.readyReplicas)}/${desiredReplicas(d)}`,
      count(status.updatedReplicas),
      count(status.availableReplicas),
      objectAge(d, now),
      names,
      images,
      selector,
    ]
  },
}

export const replicaSetPrinter: Printer = {
  columns: workloadColumns(
    [
      column('Desired', 'integer', 'Number of desired pods.'),
      column('Current', 'integer', 'The most recently observed number of replicas.'),
      column(
        'Ready',
        'integer',
        'The number of pods targeted by this ReplicaSet with a Ready condition.',
      ),
    ],
    'Label query over pods that should match the replica count.',
  ),
  cells(obj, now) {
    const rs = obj as Workload
    const status = rs.status ?? {}
    const [names, images] = templateContainers(rs)
    return [
      objectName(rs),
      desiredReplicas(rs),
      count(status.replicas),
      count(status.readyReplicas),
      objectAge(rs, now),
      names,
      images,
      formatLabelSelector(rs.spec?.selector),
    ]
  },
}

export const statefulSetPrinter: Printer = {
  columns: workloadColumns([column('Ready', 'string', 'Number of the pod with ready state')]),
  cells(obj, now) {
    const sts = obj as Workload
    const [names, images] = templateContainers(sts)
    return [
      objectName(sts),
      `${count(sts.status?.readyReplicas)}/${desiredReplicas(sts)}`,
      objectAge(sts, now),
      names,
      images,
    ]
  },
}

export const daemonSetPrinter: Printer = {
  columns: workloadColumns(
    [
      column(
        'Desired',
        'integer',
        'The total number of nodes that should be running the daemon pod.',
      ),
      column(
        'Current',
        'integer',
        'The number of nodes running at least one daemon pod that are supposed to.',
      ),
      column(
        'Ready',
        'integer',
        'The number of nodes running the daemon pod with a Ready condition.',
      ),
      column('Up-to-date', 'integer', 'The number of nodes running the updated daemon pod.'),
      column(
        'Available',
        'integer',
        'The number of nodes running the daemon pod available for minReadySeconds.',
      ),
      column('Node Selector', 'string', 'Node labels the pod template requires.'),
    ],
    'Label query over pods that are managed by the daemon set.',
  ),
  cells(obj, now) {
    const ds = obj as Workload
    const status = ds.status ?? {}
    const [names, images] = templateContainers(ds)
    return [
      objectName(ds),
      count(status.desiredNumberScheduled),
      count(status.currentNumberScheduled),
      count(status.numberReady),
      count(status.updatedNumberScheduled),
      count(status.numberAvailable),
      formatLabels(ds.spec?.template?.spec?.nodeSelector),
      objectAge(ds, now),
      names,
      images,
      formatLabelSelector(ds.spec?.selector),
    ]
  },
}

/** `statefulset.apps/web`: the controlling owner as lower-case kind.group/name. */
function controllerOf(obj: KubeObject): string {
  const ref = list(obj.metadata?.ownerReferences).find((r) => r.controller === true)
  if (!ref) return '<none>'
  const apiVersion = ref.apiVersion ?? ''
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : ''
  const kind = ref.kind ?? ''
  if (!kind && !group) return ref.name
  const groupKind = group ? `${kind}.${group}` : kind
  return `${groupKind.toLowerCase()}/${ref.name}`
}

export const controllerRevisionPrinter: Printer = {
  columns: [
    nameColumn,
    column('Controller', 'string', 'Controller of the object'),
    column('Revision', 'string', 'Revision number of the state the object holds.'),
    ageColumn,
  ],
  cells(obj, now) {
    return [objectName(obj), controllerOf(obj), count(obj.revision), objectAge(obj, now)]
  },
}
