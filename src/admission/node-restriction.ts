/**
 * NodeRestriction, as kube-apiserver runs it for `system:node:<name>`: a node writes only its own
 * Node and Lease, deletes and writes the status of only the pods bound to it, writes events only
 * about itself or those pods, and only releases the finalizer of a local-path volume. What must be
 * checked on the object as stored (a Node's labels, an event's subject after a patch) is left to
 * the store, as the NodeWriter this step answers with says (../apis/node-restriction.ts).
 */
import type { AdmissionBindings } from './bindings'
import type { KubeObject, Status } from '../apimachinery/types'
import { isJsonObject } from '../apimachinery/json-value'
import { qualifiedResource } from '../apimachinery/status'
import { findResource } from '../apis/registry'
import { eventSubject, type NodeWriter } from '../apis/node-restriction'
import { storeFor } from '../store-client/stores'
import type { AdmissionAttributes } from './attributes'
import { resourceForbidden } from './forbidden'

/** What NodeRestriction asks of the Node authorizer's graph. */
export interface NodeGraph {
  /** spec.nodeName of a stored pod ('' when unbound), or undefined when there is no such pod */
  boundNode(namespace: string, name: string): Promise<string | undefined>
}

/** A node's write refused, or let through with what the store must still check. */
export type NodeAdmission = { refused: Status } | { writer: NodeWriter }

type Check = (
  node: string,
  attrs: AdmissionAttributes,
  graph: NodeGraph,
  env: AdmissionBindings,
) => Promise<Status | { eventSubject: string } | undefined>

const leaseNamespace = 'kube-node-lease'

/** Why a node may not use the Lease `namespace/name`, or undefined: only its own, in the node lease namespace. */
export function leaseRefusal(
  node: string,
  namespace: string | undefined,
  name: string,
): string | undefined {
  if (namespace !== leaseNamespace)
    return `can only access leases in the "${leaseNamespace}" system namespace`
  if (name !== node) return 'can only access node lease with the same name as the requesting node'
  return undefined
}

/** A node writes only its own Node; a deletecollection names none, and is RBAC's alone. */
const admitNodeObject: Check = async (node, attrs) => {
  if (attrs.operation === 'DELETE' && !attrs.name) return undefined
  return attrs.name === node
    ? undefined
    : resourceForbidden(
        attrs,
        attrs.name,
        `node "${node}" is not allowed to modify node "${attrs.name}"`,
      )
}

const admitLease: Check = async (node, attrs) => {
  const why = leaseRefusal(node, attrs.namespace, attrs.name)
  return why ? resourceForbidden(attrs, attrs.name, why) : undefined
}

/** The pod writes checked, by subresource ('' for the pod itself): their operation, and what a node may do. */
const podWrites = new Map<string, { operation: AdmissionAttributes['operation']; may: string }>([
  ['', { operation: 'DELETE', may: 'delete pods' }],
  ['status', { operation: 'UPDATE', may: 'update pod status for pods' }],
])

/** A node deletes, and writes the status of, only the pods bound to it. */
const admitPod: Check = async (node, attrs, graph) => {
  const checked = podWrites.get(attrs.subresource)
  if (!attrs.name || checked?.operation !== attrs.operation) return undefined
  const bound = await graph.boundNode(attrs.namespace, attrs.name)
  // A missing pod is the handler's to report (404), as upstream answers NotFound here.
  if (bound === undefined || bound === node) return undefined
  return resourceForbidden(
    attrs,
    attrs.name,
    `node "${node}" can only ${checked.may} with spec.nodeName set to itself`,
  )
}

/**
 * The local-path volumes a node may patch: a JSON merge patch that touches only
 * `metadata.finalizers` (with an optional `metadata.resourceVersion` precondition), which is all
 * the agent does when it has dealt with a volume's directory.
 */
const admitVolume: Check = async (node, attrs) => {
  if (!attrs.patch || !attrs.name) return undefined
  const why = `node "${node}" may only change the finalizers of persistentvolume "${attrs.name}"`
  const { type, body } = attrs.patch
  if (type !== 'merge' || !isJsonObject(body) || Object.keys(body).some((k) => k !== 'metadata'))
    return resourceForbidden(attrs, attrs.name, why)
  const meta = body.metadata
  if (
    !isJsonObject(meta) ||
    Object.keys(meta).some((k) => k !== 'finalizers' && k !== 'resourceVersion')
  )
    return resourceForbidden(attrs, attrs.name, why)
  return undefined
}

/**
 * Events a node writes must be about itself (`involvedObject` its own Node) or a pod bound to
 * it: the involvedObject of a created or replacing event, or of the stored one for a patch, is
 * checked here; the store checks that the event as written is still about that object.
 */
const admitEvent: Check = async (node, attrs, graph, env) => {
  if (attrs.subresource || (attrs.operation !== 'CREATE' && attrs.operation !== 'UPDATE'))
    return undefined
  let event: KubeObject | undefined
  if (attrs.patch) {
    const def = findResource('', 'v1', 'events')!
    const res = await storeFor(env, def).get({ def, namespace: attrs.namespace, name: attrs.name })
    // A missing event is the handler's to report (404); an apply that would create one is refused by the store.
    if (!res.ok) return undefined
    event = JSON.parse(res.value) as KubeObject
  } else {
    event = attrs.object
    // A body that does not decode is the handler's to refuse (400); the store refuses any write without a checked subject.
    if (!event) return undefined
  }
  const subject = eventSubject(event)
  if (await isOwnSubject(graph, node, subject)) return { eventSubject: subject }
  return resourceForbidden(
    attrs,
    attrs.name,
    `node "${node}" can only ${attrs.operation === 'CREATE' ? 'create' : 'update'} events about itself or pods bound to it`,
  )
}

/** The kinds of object a node's event may be about, and whether one is the node's own: by the event's involvedObject.kind. */
const ownSubjects = new Map<
  string,
  (graph: NodeGraph, node: string, namespace: string, name: string) => Promise<boolean>
>([
  // The node itself.
  ['Node', async (_graph, node, namespace, name) => namespace === '' && name === node],
  // A pod bound to it.
  [
    'Pod',
    async (graph, node, namespace, name) =>
      !!namespace && !!name && (await graph.boundNode(namespace, name)) === node,
  ],
])

async function isOwnSubject(graph: NodeGraph, node: string, subject: string): Promise<boolean> {
  const [kind, namespace, name] = subject.split('/') as [string, string, string]
  const own = ownSubjects.get(kind)
  return own ? own(graph, node, namespace, name) : false
}

/** NodeRestriction's checks by group and resource, as upstream's plugin dispatches by resource. */
const checks = new Map<string, Check>([
  [qualifiedResource('', 'nodes'), admitNodeObject],
  [qualifiedResource('coordination.k8s.io', 'leases'), admitLease],
  [qualifiedResource('', 'pods'), admitPod],
  [qualifiedResource('', 'persistentvolumes'), admitVolume],
  [qualifiedResource('', 'events'), admitEvent],
])

/** Whether NodeRestriction checks writes to the resource. */
export function restrictsNodeWrites(attrs: { group: string; resource: string }): boolean {
  return checks.has(qualifiedResource(attrs.group, attrs.resource))
}

/** NodeRestriction on a write by `node`: the 403 to answer with, or what the store must check of the write. */
export async function admitNodeWrite(
  env: AdmissionBindings,
  node: string,
  attrs: AdmissionAttributes,
  graph: NodeGraph,
): Promise<NodeAdmission> {
  const outcome = await checks.get(qualifiedResource(attrs.group, attrs.resource))?.(
    node,
    attrs,
    graph,
    env,
  )
  if (!outcome) return { writer: { node } }
  return 'eventSubject' in outcome
    ? { writer: { node, eventSubject: outcome.eventSubject } }
    : { refused: outcome }
}
