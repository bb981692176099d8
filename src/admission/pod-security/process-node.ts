/**
 * The process-node rule (src/apis/pod-security/process-node.ts) at admission: a pod that names its
 * node itself, created with `spec.nodeName` or bound with pods/binding, does not pass the
 * scheduler, so a pod whose namespace enforces baseline or restricted naming a node labelled
 * `edgeplane.io/runtime=process` is refused here: 403 Forbidden, nothing stored.
 */
import type { AdmissionBindings } from '../bindings'
import type { KubeObject, Status } from '../../apimachinery/types'
import { ApiError } from '../../apimachinery/status'
import { asRecord } from '../../apimachinery/json-value'
import { goQuote } from '../../apimachinery/go-format'
import { findResource } from '../../apis/registry'
import type { Target } from '../../apis/store-options'
import {
  hostProcessesReason,
  isProcessNode,
  levelKeptOffProcessNodes,
} from '../../apis/pod-security/process-node'
import type { PodSecuritySettings } from '../../apis/pod-security/settings'
import type { LevelVersion } from '../../apis/pod-security/levels'
import { storeFor } from '../../store-client/stores'
import { admissionForbidden } from '../forbidden'
import { podSecuritySettings } from './config'
import { namespaceLabels } from './namespace-lookup'

const nodesDef = findResource('', 'v1', 'nodes')!
const podsDef = findResource('', 'v1', 'pods')!

/** The level the namespace holds pods of this runtime class to, when it keeps them off process nodes. */
async function levelOf(
  env: AdmissionBindings,
  settings: PodSecuritySettings,
  namespace: string,
  runtimeClassName: unknown,
): Promise<LevelVersion | undefined> {
  if (settings.exemptions.namespaces.includes(namespace)) return undefined
  const labels = await namespaceLabels(env, namespace)
  return levelKeptOffProcessNodes({ namespace, runtimeClassName }, labels ?? undefined, settings)
}

/** Whether the node is a process node: false when there is no such node; a failed read throws. */
async function processNode(env: AdmissionBindings, nodeName: string): Promise<boolean> {
  const got = await storeFor(env, nodesDef).get({ def: nodesDef, name: nodeName })
  if (got.ok) return isProcessNode(JSON.parse(got.value) as KubeObject)
  const { status } = got
  if (status.code === 404) return false
  throw new ApiError(status)
}

const forbiddenOn = (name: string, nodeName: string, enforced: LevelVersion): Status =>
  admissionForbidden(
    podsDef,
    name,
    `node ${goQuote(nodeName)} runs ${hostProcessesReason(enforced)}`,
  )

/** The node a pod names in `spec.nodeName`, or ''. */
function nodeNameOf(pod: KubeObject): string {
  const nodeName = asRecord(pod.spec).nodeName
  return typeof nodeName === 'string' ? nodeName : ''
}

/**
 * The refusal of a pod about to be created in `namespace` with `spec.nodeName`, or undefined when
 * the rule lets it be there: it names no node, its namespace enforces nothing stricter than
 * privileged (or is exempt, or its runtime class is), or the node is no process node (or does not
 * exist). The node is read only when the namespace holds the pod to a level.
 */
export async function processNodeRefusal(
  env: AdmissionBindings,
  settings: PodSecuritySettings,
  pod: KubeObject,
  namespace: string,
): Promise<Status | undefined> {
  const nodeName = nodeNameOf(pod)
  if (!nodeName) return undefined
  const enforced = await levelOf(env, settings, namespace, asRecord(pod.spec).runtimeClassName)
  if (!enforced || !(await processNode(env, nodeName))) return undefined
  return forbiddenOn(pod.metadata.name ?? '', nodeName, enforced)
}

/**
 * POST pods/{name}/binding to `nodeName`: throws the 403 when the rule keeps the pod off that
 * node. The pod is read only when its namespace holds pods to a level and the node is a process
 * node; a pod that does not exist is left to the binding's own 404.
 */
export async function admitPodBinding(
  env: AdmissionBindings,
  target: Target,
  nodeName: string,
): Promise<void> {
  const { settings, refused } = podSecuritySettings(env)
  if (refused) throw new ApiError(refused)
  const namespace = target.namespace ?? ''
  if (!(await levelOf(env, settings, namespace, undefined)) || !(await processNode(env, nodeName)))
    return
  const got = await storeFor(env, podsDef).get({ def: podsDef, namespace, name: target.name })
  if (!got.ok) return
  const pod = JSON.parse(got.value) as KubeObject
  const enforced = await levelOf(env, settings, namespace, asRecord(pod.spec).runtimeClassName)
  if (enforced) throw new ApiError(forbiddenOn(target.name, nodeName, enforced))
}
