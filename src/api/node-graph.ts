import type { Env } from '../env'
import type { KubeObject } from '../apimachinery/types'
import { parseFieldSelector, type FieldRequirement } from '../apimachinery/fields'
import { findResource } from '../apis/registry'
import { storeFor } from '../client/stores'
import type { ResourceAttributes } from './authorizer-attributes'
import type { Decision } from './rbac'
import { parseLabelSelector, requiresExactMatch } from '../apimachinery/labels'
import { LOCAL_PATH_NODE_LABEL } from '../controllers/persistentvolume/resources'

const allow: Decision = { allowed: true, reason: '' }
const deny = (reason: string): Decision => ({ allowed: false, reason })
const noRelationship = (node: string) => deny(`no relationship found between node '${node}' and this object`)

/** What the store must say for a node's request to be decided: whether the named object is related to the node. */
type Relation = { kind: 'referenced'; resource: string; namespace: string; name: string } | { kind: 'bound'; namespace: string; name: string } | { kind: 'volume'; name: string; verb: string }

/**
 * The part of kube-apiserver's Node authorizer that looks past the static rules: secrets,
 * configmaps and persistentvolumeclaims only when a pod bound to the node references them (the
 * pods store's index), pods listed or watched only with `spec.nodeName=<node>`, and only the
 * node's own Node read. `related` is the store's answer to `relationOf` (false when not asked).
 * Undefined for the resources the static rules decide.
 */
export function authorizeNodeScoped(node: string, attrs: ResourceAttributes, related: boolean): Decision | undefined {
  if (attrs.group !== '') return undefined
  switch (attrs.resource) {
    case 'secrets':
    case 'configmaps':
      if (!['get', 'list', 'watch'].includes(attrs.verb)) return deny('can only read resources of this type')
      if (attrs.subresource) return deny('cannot read subresource')
      if (!attrs.namespace) return deny('can only read namespaced object of this type')
      return relatedObject(node, attrs, related)
    case 'persistentvolumes':
      // Read through a pod's claim; listed, read and finalized when it is a local-path volume of this node.
      if ((attrs.verb === 'list' || attrs.verb === 'watch') && !attrs.name) {
        return selectsLocalPathNode(node, attrs) ? allow : deny(`can only list/watch persistentvolumes with the ${LOCAL_PATH_NODE_LABEL}=${node} label selector`)
      }
      if (attrs.verb !== 'get' && attrs.verb !== 'patch') return deny('can only get or patch individual resources of this type')
      if (attrs.subresource) return deny('cannot get subresource')
      return relatedObject(node, attrs, related)
    case 'persistentvolumeclaims':
      if (attrs.verb !== 'get') return deny('can only get individual resources of this type')
      if (attrs.subresource) return deny('cannot get subresource')
      return relatedObject(node, attrs, related)
    case 'nodes':
      return authorizeNode(node, attrs)
    case 'pods':
      return authorizePod(node, attrs, related)
  }
  return undefined
}

function relatedObject(node: string, attrs: ResourceAttributes, related: boolean): Decision {
  if (!attrs.name) return deny('No Object name found')
  return related ? allow : noRelationship(node)
}

/** A node registers and updates its own Node (NodeRestriction checks the name) and reads only that one. */
function authorizeNode(node: string, attrs: ResourceAttributes): Decision {
  const { verb, subresource, name } = attrs
  if (subresource === 'status') {
    if (verb === 'update' || verb === 'patch') return allow
    // Reading its own Node's status as well (kubectl reads before it patches a subresource).
    return verb === 'get' && name === node ? allow : deny('')
  }
  if (subresource) return deny('')
  if (verb === 'create' || verb === 'update' || verb === 'patch') return allow
  if (verb !== 'get' && verb !== 'list' && verb !== 'watch') return deny('')
  if (name === node) return allow
  if (!name) return deny(`node '${node}' cannot read all nodes, only its own Node object`)
  return deny(`node '${node}' cannot read '${name}', only its own Node object`)
}

/**
 * Any pod may be read by name; pods are listed and watched only with the node's own
 * `spec.nodeName`; deleting a pod and writing its status are left to NodeRestriction (pods bound
 * to the node). A node creates no pods: there are no mirror pods here.
 */
function authorizePod(node: string, attrs: ResourceAttributes, related: boolean): Decision {
  const { verb, subresource } = attrs
  // A pod's status is read as the pod is (kubectl reads before it patches a subresource).
  if (subresource === 'status') return verb === 'update' || verb === 'patch' || verb === 'get' ? allow : deny('')
  if (subresource) return deny('')
  if (verb === 'get' || verb === 'delete') return allow
  if (verb !== 'list' && verb !== 'watch') return deny('')
  if (selectsNode(node, attrs)) return allow
  // One pod, by `metadata.name=`, when it is bound to the node.
  if (attrs.name) return related ? allow : noRelationship(node)
  return deny('can only list/watch pods with spec.nodeName field selector')
}

/** A label selector that requires `edgeplane.io/local-path-node=<node>`. */
function selectsLocalPathNode(node: string, attrs: ResourceAttributes): boolean {
  if (!attrs.labelSelector) return false
  try {
    return requiresExactMatch(parseLabelSelector(attrs.labelSelector), LOCAL_PATH_NODE_LABEL) === node
  } catch {
    return false
  }
}

function selectsNode(node: string, attrs: ResourceAttributes): boolean {
  return fieldRequirements(attrs).some((r) => r.field === 'spec.nodeName' && r.operator === '=' && r.value === node)
}

/** The request's field selector terms; none when it has none or it does not parse (the handler answers that). */
function fieldRequirements(attrs: ResourceAttributes): readonly FieldRequirement[] {
  if (!attrs.fieldSelector) return []
  try {
    return parseFieldSelector(attrs.fieldSelector).requirements
  } catch {
    return []
  }
}

/** The relation the store must confirm before `authorizeNodeScoped` can allow the request, if any. */
export function relationOf(node: string, attrs: ResourceAttributes): Relation | undefined {
  // A volume, through the claim it is bound to (pod → pvc → pv).
  if (attrs.group === '' && attrs.resource === 'persistentvolumes' && (attrs.verb === 'get' || attrs.verb === 'patch') && attrs.name && !attrs.subresource) return { kind: 'volume', name: attrs.name, verb: attrs.verb }
  if (attrs.group !== '' || attrs.subresource || !attrs.name || !attrs.namespace) return undefined
  const { resource, namespace, name, verb } = attrs
  if (resource === 'secrets' || resource === 'configmaps') return ['get', 'list', 'watch'].includes(verb) ? { kind: 'referenced', resource, namespace, name } : undefined
  if (resource === 'persistentvolumeclaims') return verb === 'get' ? { kind: 'referenced', resource, namespace, name } : undefined
  if (resource === 'pods' && (verb === 'list' || verb === 'watch') && !selectsNode(node, attrs)) return { kind: 'bound', namespace, name }
  return undefined
}

/** Asks the pods store: a lookup in its index of pod references, or the pod's binding. */
export async function isRelated(env: Env, node: string, relation: Relation): Promise<boolean> {
  if (relation.kind === 'bound') return (await boundNode(env, relation.namespace, relation.name)) === node
  if (relation.kind === 'volume') return volumeRelated(env, node, relation.name, relation.verb)
  const pods = findResource('', 'v1', 'pods')!
  return storeFor(env, pods).nodeRefers(node, relation.resource, relation.namespace, relation.name)
}

/** spec.nodeName of a stored pod ('' when unbound), or undefined when there is no such pod. */
export async function boundNode(env: Env, namespace: string, name: string): Promise<string | undefined> {
  const def = findResource('', 'v1', 'pods')!
  const res = await storeFor(env, def).get({ def, namespace, name })
  if (!res.ok) return undefined
  const pod = JSON.parse(res.value) as KubeObject & { spec?: { nodeName?: string } }
  return pod.spec?.nodeName ?? ''
}

/**
 * Whether the volume is a local-path volume of this node (which the node finalizes), or, for a
 * read, the volume of a claim that a pod bound to the node references.
 */
async function volumeRelated(env: Env, node: string, name: string, verb: string): Promise<boolean> {
  const def = findResource('', 'v1', 'persistentvolumes')!
  const res = await storeFor(env, def).get({ def, name })
  if (!res.ok) return false
  const pv = JSON.parse(res.value) as KubeObject & { spec?: { claimRef?: { namespace?: string; name?: string } } }
  if (pv.metadata.labels?.[LOCAL_PATH_NODE_LABEL] === node) return true
  if (verb !== 'get') return false
  const ref = pv.spec?.claimRef
  if (!ref?.namespace || !ref.name) return false
  const pods = findResource('', 'v1', 'pods')!
  return storeFor(env, pods).nodeRefers(node, 'persistentvolumeclaims', ref.namespace, ref.name)
}
