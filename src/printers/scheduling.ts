/**
 * Tables for scheduling.k8s.io PriorityClass, node.k8s.io RuntimeClass, and core/v1
 * ReplicationController and PodTemplate (columns of upstream's printers).
 */
import type { KubeObject } from '../apimachinery/types'
import {
  NAME_DESCRIPTION,
  ageColumn,
  column,
  nameColumn,
  objectAge,
  objectName,
  workloadColumns,
  type Printer,
} from './columns'
import { containerCells, count, formatLabels, type ContainerLike } from './format'

interface PriorityClass extends KubeObject {
  value?: number
  globalDefault?: boolean
  preemptionPolicy?: string
}

interface RuntimeClass extends KubeObject {
  handler?: string
}

interface Template {
  metadata?: { labels?: Record<string, string> }
  spec?: { containers?: ContainerLike[] }
}

interface ReplicationController extends KubeObject {
  spec?: { replicas?: number; selector?: Record<string, string>; template?: Template }
  status?: { replicas?: number; readyReplicas?: number }
}

export const priorityClassPrinter: Printer = {
  columns: [
    nameColumn,
    column(
      'Value',
      'integer',
      'value represents the integer value of this priority class. This is the actual priority that pods receive when they have the name of this class in their pod spec.',
    ),
    column(
      'Global-Default',
      'boolean',
      'globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class.',
    ),
    ageColumn,
    column(
      'PreemptionPolicy',
      'string',
      'preemptionPolicy is the Policy for preempting pods with lower priority. One of Never, PreemptLowerPriority.',
    ),
  ],
  cells(obj, now) {
    const pc = obj as PriorityClass
    return [
      objectName(pc),
      pc.value ?? 0,
      pc.globalDefault === true,
      objectAge(pc, now),
      pc.preemptionPolicy ?? '<unset>',
    ]
  },
}

export const runtimeClassPrinter: Printer = {
  columns: [
    nameColumn,
    column(
      'Handler',
      'string',
      'handler specifies the underlying runtime and configuration that the CRI implementation will use to handle pods of this class.',
    ),
    ageColumn,
  ],
  cells: (obj, now) => [objectName(obj), (obj as RuntimeClass).handler ?? '', objectAge(obj, now)],
}

export const replicationControllerPrinter: Printer = {
  columns: workloadColumns(
    [
      column('Desired', 'integer', 'Replicas is the number of desired replicas.'),
      column('Current', 'integer', 'Replicas is the most recently observed number of replicas.'),
      column('Ready', 'integer', 'The number of ready replicas for this replication controller.'),
    ],
    'Selector is a label query over pods that should match the Replicas count.',
  ),
  cells(obj, now) {
    const rc = obj as ReplicationController
    const [names, images] = containerCells(rc.spec?.template?.spec?.containers)
    return [
      objectName(rc),
      count(rc.spec?.replicas),
      count(rc.status?.replicas),
      count(rc.status?.readyReplicas),
      objectAge(rc, now),
      names,
      images,
      formatLabels(rc.spec?.selector),
    ]
  },
}

export const podTemplatePrinter: Printer = {
  columns: [
    column('Template', 'string', NAME_DESCRIPTION, 0, 'name'),
    column('Containers', 'string', 'Name of each container in the template.'),
    column('Images', 'string', 'Name of each container image in the template.'),
    column('Pod Labels', 'string', 'The labels for the pod template.'),
  ],
  cells(obj) {
    const template = (obj as KubeObject & { template?: Template }).template
    const [names, images] = containerCells(template?.spec?.containers)
    return [objectName(obj), names, images, formatLabels(template?.metadata?.labels)]
  },
}
