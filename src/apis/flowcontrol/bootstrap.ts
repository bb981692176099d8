/**
 * The FlowSchemas and PriorityLevelConfigurations kube-apiserver v1.32 keeps from its start
 * (k8s.io/apiserver/pkg/apis/flowcontrol/bootstrap): the mandatory `exempt` and `catch-all` pairs,
 * which it restores whatever is done to them, and the suggested ones, which it re-creates when
 * missing and keeps up to date while their `apf.kubernetes.io/autoupdate-spec` annotation allows.
 */
import type { KubeObject } from '../../apimachinery/types'
import { autoUpdateAnnotation, catchAllName, exemptName, flowcontrolGroup } from './names'
import { defaultFlowcontrolObject } from './defaults'

const all = '*'
const kubeControllerManager = 'system:kube-controller-manager'
const kubeScheduler = 'system:kube-scheduler'

type Subject = Record<string, unknown>
type Rule = Record<string, unknown>

const groups = (...names: string[]): Subject[] =>
  names.map((name) => ({ kind: 'Group', group: { name } }))
const users = (...names: string[]): Subject[] =>
  names.map((name) => ({ kind: 'User', user: { name } }))
const kubeSystemServiceAccounts = (...names: string[]): Subject[] =>
  names.map((name) => ({
    kind: 'ServiceAccount',
    serviceAccount: { name, namespace: 'kube-system' },
  }))

const resourceRule = (
  verbs: string[],
  apiGroups: string[],
  resources: string[],
  namespaces: string[],
  clusterScope: boolean,
): Rule => ({
  verbs,
  apiGroups,
  resources,
  ...(clusterScope ? { clusterScope } : {}),
  namespaces,
})
const nonResourceRule = (verbs: string[], nonResourceURLs: string[]): Rule => ({
  verbs,
  nonResourceURLs,
})

/** Every verb on every resource and non-resource URL, cluster-wide and in every namespace. */
const everything = (subjects: Subject[]) => ({
  subjects,
  resourceRules: [resourceRule([all], [all], [all], [all], true)],
  nonResourceRules: [nonResourceRule([all], [all])],
})

function flowSchema(
  name: string,
  level: string,
  matchingPrecedence: number,
  distinguisher: string | undefined,
  ...rules: Rule[]
): KubeObject {
  return {
    apiVersion: `${flowcontrolGroup}/v1`,
    kind: 'FlowSchema',
    metadata: { name, annotations: { [autoUpdateAnnotation]: 'true' } },
    spec: {
      priorityLevelConfiguration: { name: level },
      matchingPrecedence,
      ...(distinguisher ? { distinguisherMethod: { type: distinguisher } } : {}),
      rules,
    },
  }
}

function priorityLevel(name: string, spec: Record<string, unknown>): KubeObject {
  return {
    apiVersion: `${flowcontrolGroup}/v1`,
    kind: 'PriorityLevelConfiguration',
    metadata: { name, annotations: { [autoUpdateAnnotation]: 'true' } },
    spec,
  }
}

const queued = (
  nominalConcurrencyShares: number,
  lendablePercent: number,
  queues: number,
  handSize: number,
) => ({
  type: 'Limited',
  limited: {
    nominalConcurrencyShares,
    lendablePercent,
    limitResponse: { type: 'Queue', queuing: { queues, handSize, queueLengthLimit: 50 } },
  },
})

export const mandatoryPriorityLevels: readonly KubeObject[] = [
  priorityLevel(catchAllName, {
    type: 'Limited',
    limited: { nominalConcurrencyShares: 5, lendablePercent: 0, limitResponse: { type: 'Reject' } },
  }),
  priorityLevel(exemptName, {
    type: 'Exempt',
    exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 },
  }),
]

export const mandatoryFlowSchemas: readonly KubeObject[] = [
  flowSchema(exemptName, exemptName, 1, undefined, everything(groups('system:masters'))),
  flowSchema(
    catchAllName,
    catchAllName,
    10000,
    'ByUser',
    everything(groups('system:unauthenticated', 'system:authenticated')),
  ),
]

export const suggestedPriorityLevels: readonly KubeObject[] = [
  priorityLevel('system', queued(30, 33, 64, 6)),
  priorityLevel('node-high', queued(40, 25, 64, 6)),
  priorityLevel('leader-election', queued(10, 0, 16, 4)),
  priorityLevel('workload-high', queued(40, 50, 128, 6)),
  priorityLevel('workload-low', queued(100, 90, 128, 6)),
  priorityLevel('global-default', queued(20, 50, 128, 6)),
]

const getCreateUpdate = ['get', 'create', 'update']

export const suggestedFlowSchemas: readonly KubeObject[] = [
  flowSchema('system-nodes', 'system', 500, 'ByUser', everything(groups('system:nodes'))),
  flowSchema('system-node-high', 'node-high', 400, 'ByUser', {
    subjects: groups('system:nodes'),
    resourceRules: [
      resourceRule([all], [''], ['nodes', 'nodes/status'], [all], true),
      resourceRule([all], ['coordination.k8s.io'], ['leases'], [all], false),
    ],
  }),
  flowSchema('probes', exemptName, 2, undefined, {
    subjects: groups('system:unauthenticated', 'system:authenticated'),
    nonResourceRules: [nonResourceRule(['get'], ['/healthz', '/readyz', '/livez'])],
  }),
  flowSchema('system-leader-election', 'leader-election', 100, 'ByUser', {
    subjects: [...users(kubeControllerManager, kubeScheduler), ...kubeSystemServiceAccounts(all)],
    resourceRules: [
      resourceRule(getCreateUpdate, ['coordination.k8s.io'], ['leases'], [all], false),
    ],
  }),
  flowSchema('workload-leader-election', 'leader-election', 200, 'ByUser', {
    subjects: kubeSystemServiceAccounts(all),
    resourceRules: [
      resourceRule(getCreateUpdate, [''], ['endpoints', 'configmaps'], [all], false),
      resourceRule(getCreateUpdate, ['coordination.k8s.io'], ['leases'], [all], false),
    ],
  }),
  flowSchema('endpoint-controller', 'workload-high', 150, 'ByUser', {
    subjects: [
      ...users(kubeControllerManager),
      ...kubeSystemServiceAccounts('endpoint-controller', 'endpointslicemirroring-controller'),
    ],
    resourceRules: [resourceRule(getCreateUpdate, [''], ['endpoints'], [all], false)],
  }),
  flowSchema(
    'kube-controller-manager',
    'workload-high',
    800,
    'ByNamespace',
    everything(users(kubeControllerManager)),
  ),
  flowSchema(
    'kube-scheduler',
    'workload-high',
    800,
    'ByNamespace',
    everything(users(kubeScheduler)),
  ),
  flowSchema(
    'kube-system-service-accounts',
    'workload-high',
    900,
    'ByNamespace',
    everything(kubeSystemServiceAccounts(all)),
  ),
  flowSchema(
    'service-accounts',
    'workload-low',
    9000,
    'ByUser',
    everything(groups('system:serviceaccounts')),
  ),
  flowSchema(
    'global-default',
    'global-default',
    9900,
    'ByUser',
    everything(groups('system:unauthenticated', 'system:authenticated')),
  ),
]

/** A bootstrap object as the store holds its spec once defaulted (what a stored object is compared with). */
export function defaulted(obj: KubeObject): KubeObject {
  const copy = structuredClone(obj)
  defaultFlowcontrolObject(copy.kind ?? '', copy)
  return copy
}

/** The bootstrap object of a kind and name, and whether it is mandatory; undefined for any other name. */
export function bootstrapObject(
  kind: string,
  name: string,
): { object: KubeObject; mandatory: boolean } | undefined {
  const [mandatory, suggested] =
    kind === 'FlowSchema'
      ? [mandatoryFlowSchemas, suggestedFlowSchemas]
      : [mandatoryPriorityLevels, suggestedPriorityLevels]
  const m = mandatory.find((o) => o.metadata.name === name)
  if (m) return { object: m, mandatory: true }
  const s = suggested.find((o) => o.metadata.name === name)
  return s ? { object: s, mandatory: false } : undefined
}

/** The names of a kind's bootstrap objects, mandatory ones first. */
export function bootstrapNames(kind: string): string[] {
  const lists =
    kind === 'FlowSchema'
      ? [mandatoryFlowSchemas, suggestedFlowSchemas]
      : [mandatoryPriorityLevels, suggestedPriorityLevels]
  return lists.flat().map((o) => o.metadata.name!)
}
