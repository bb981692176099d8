import type { StoreBindings } from '../../store-client/bindings'
import type { KubeObject } from '../../apimachinery/types'
import { qualifiedResource } from '../../apimachinery/status'
import { parseFieldSelector, type FieldRequirement } from '../../apimachinery/fields'
import { findResource } from '../../apis/registry'
import { storeFor } from '../../store-client/stores'
import type { ResourceAttributes } from './attributes'
import type { Decision } from './rbac'
import { parseLabelSelector } from '../../apimachinery/label-selector-parser'
import { requiresExactMatch } from '../../apimachinery/labels'
import { LOCAL_PATH_NODE_LABEL } from '../../apis/storage/annotations'

const allow: Decision = { allowed: true, reason: '' }
const deny = (reason: string): Decision => ({ allowed: false, reason })
const noRelationship = (node: string) =>
  deny(`no relationship found between node '${node}' and this object`)

/** What the store must say for a node's request to be decided: whether the named object is related to the node. */
type Relation =
  | { kind: 'referenced'; resource: string; namespace: string; name: string }
  | { kind: 'bound'; namespace: string; name: string }
  | { kind: 'volume'; name: string; verb: string }

type NodeRule = (node: string, attrs: ResourceAttributes, related: boolean) => Decision

/** A resource's rules by subresource: a request about any other subresource is denied. */
function bySubresource(
  rules: ReadonlyMap<string, NodeRule>,
  node: string,
  attrs: ResourceAttributes,
  related: boolean,
): Decision {
  const rule = rules.get(attrs.subresource ?? '')
  return rule ? rule(node, attrs, related) : deny('')
}

/** Secrets and configmaps: read only by name, when a pod bound to the node references them. */
const readReferenced: NodeRule = (node, attrs, related) => {
  if (!['get', 'list', 'watch'].includes(attrs.verb))
    return deny('can only read resources of this type')
  if (attrs.subresource) return deny('cannot read subresource')
  if (!attrs.namespace) return deny('can only read namespaced object of this type')
  return relatedObject(node, attrs, related)
}

/** Read through a pod's claim; listed, read and finalized when it is a local-path volume of this node. */
const authorizeVolume: NodeRule = (node, attrs, related) => {
  if ((attrs.verb === 'list' || attrs.verb === 'watch') && !attrs.name) {
    return selectsLocalPathNode(node, attrs)
      ? allow
      : deny(
          `can only list/watch persistentvolumes with the ${LOCAL_PATH_NODE_LABEL}=${node} label selector`,
        )
  }
  if (attrs.verb !== 'get' && attrs.verb !== 'patch')
    return deny('can only get or patch individual resources of this type')
  if (attrs.subresource) return deny('cannot get subresource')
  return relatedObject(node, attrs, related)
}

const getClaim: NodeRule = (node, attrs, related) => {
  if (attrs.verb !== 'get') return deny('can only get individual resources of this type')
  if (attrs.subresource) return deny('cannot get subresource')
  return relatedObject(node, attrs, related)
}

/** A node registers and updates its own Node (NodeRestriction checks the name) and reads only that one. */
const nodeRules = new Map<string, NodeRule>([
  [
    '',
    (node, { verb, name }) => {
      if (verb === 'create' || verb === 'update' || verb === 'patch') return allow
      if (verb !== 'get' && verb !== 'list' && verb !== 'watch') return deny('')
      if (name === node) return allow
      if (!name) return deny(`node '${node}' cannot read all nodes, only its own Node object`)
      return deny(`node '${node}' cannot read '${name}', only its own Node object`)
    },
  ],
  // Reading its own Node's status as well (kubectl reads before it patches a subresource).
  [
    'status',
    (node, { verb, name }) =>
      verb === 'update' || verb === 'patch' || (verb === 'get' && name === node) ? allow : deny(''),
  ],
])

/**
 * Any pod may be read by name; pods are listed and watched only with the node's own
 * `spec.nodeName`; deleting a pod and writing its status are left to NodeRestriction (pods bound
 * to the node). A node creates no pods: there are no mirror pods here.
 */
const podRules = new Map<string, NodeRule>([
  [
    '',
    (node, attrs, related) => {
      const { verb } = attrs
      if (verb === 'get' || verb === 'delete') return allow
      if (verb !== 'list' && verb !== 'watch') return deny('')
      if (selectsNode(node, attrs)) return allow
      // One pod, by `metadata.name=`, when it is bound to the node.
      if (attrs.name) return related ? allow : noRelationship(node)
      return deny('can only list/watch pods with spec.nodeName field selector')
    },
  ],
  // A pod's status is read as the pod is (kubectl reads before it patches a subresource).
  [
    'status',
    (_node, { verb }) =>
      verb === 'update' || verb === 'patch' || verb === 'get' ? allow : deny(''),
  ],
])

/** The rules past the static ones, by group and resource, as upstream's Node authorizer dispatches by resource type. */
const scopedRules = new Map<string, NodeRule>([
  [qualifiedResource('', 'secrets'), readReferenced],
  [qualifiedResource('', 'configmaps'), readReferenced],
  [qualifiedResource('', 'persistentvolumes'), authorizeVolume],
  [qualifiedResource('', 'persistentvolumeclaims'), getClaim],
  [
    qualifiedResource('', 'nodes'),
    (node, attrs, related) => bySubresource(nodeRules, node, attrs, related),
  ],
  [
    qualifiedResource('', 'pods'),
    (node, attrs, related) => bySubresource(podRules, node, attrs, related),
  ],
])

/**
 * The part of kube-apiserver's Node authorizer that looks past the static rules: secrets,
 * configmaps and persistentvolumeclaims only when a pod bound to the node references them (the
 * pods store's index), pods listed or watched only with `spec.nodeName=<node>`, and only the
 * node's own Node read. `related` is the store's answer to `relationOf` (false when not asked).
 * Undefined for the resources the static rules decide.
 */
export function authorizeNodeScoped(
  node: string,
  attrs: ResourceAttributes,
  related: boolean,
): Decision | undefined {
  return scopedRules.get(qualifiedResource(attrs.group, attrs.resource))?.(node, attrs, related)
}

function relatedObject(node: string, attrs: ResourceAttributes, related: boolean): Decision {
  if (!attrs.name) return deny('No Object name found')
  return related ? allow : noRelationship(node)
}

/** A label selector that requires `edgeplane.io/local-path-node=<node>`. */
function selectsLocalPathNode(node: string, attrs: ResourceAttributes): boolean {
  if (!attrs.labelSelector) return false
  try {
    return (
      requiresExactMatch(parseLabelSelector(attrs.labelSelector), LOCAL_PATH_NODE_LABEL) === node
    )
  } catch {
    return false
  }
}

function selectsNode(node: string, attrs: ResourceAttributes): boolean {
  return fieldRequirements(attrs).some(
    (r) => r.field === 'spec.nodeName' && r.operator === '=' && r.value === node,
  )
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

type RelationOf = (node: string, attrs: ResourceAttributes) => Relation | undefined

/** A relation to a named object of a namespace, itself (not a subresource). */
const namedInNamespace =
  (
    relation: (
      node: string,
      attrs: ResourceAttributes & { name: string; namespace: string },
    ) => Relation | undefined,
  ): RelationOf =>
  (node, attrs) =>
    attrs.subresource || !attrs.name || !attrs.namespace
      ? undefined
      : relation(node, attrs as ResourceAttributes & { name: string; namespace: string })

/** What a pod bound to the node must reference (or be), by group and resource. */
const relations = new Map<string, RelationOf>([
  // A volume, through the claim it is bound to (pod → pvc → pv).
  [
    qualifiedResource('', 'persistentvolumes'),
    (_node, { verb, name, subresource }) =>
      (verb === 'get' || verb === 'patch') && name && !subresource
        ? { kind: 'volume', name, verb }
        : undefined,
  ],
  [
    qualifiedResource('', 'secrets'),
    namedInNamespace((_node, { verb, namespace, name }) =>
      ['get', 'list', 'watch'].includes(verb)
        ? { kind: 'referenced', resource: 'secrets', namespace, name }
        : undefined,
    ),
  ],
  [
    qualifiedResource('', 'configmaps'),
    namedInNamespace((_node, { verb, namespace, name }) =>
      ['get', 'list', 'watch'].includes(verb)
        ? { kind: 'referenced', resource: 'configmaps', namespace, name }
        : undefined,
    ),
  ],
  [
    qualifiedResource('', 'persistentvolumeclaims'),
    namedInNamespace((_node, { verb, namespace, name }) =>
      verb === 'get'
        ? { kind: 'referenced', resource: 'persistentvolumeclaims', namespace, name }
        : undefined,
    ),
  ],
  [
    qualifiedResource('', 'pods'),
    namedInNamespace((node, attrs) =>
      (attrs.verb === 'list' || attrs.verb === 'watch') && !selectsNode(node, attrs)
        ? { kind: 'bound', namespace: attrs.namespace, name: attrs.name }
        : undefined,
    ),
  ],
])

/** The relation the store must confirm before `authorizeNodeScoped` can allow the request, if any. */
export function relationOf(node: string, attrs: ResourceAttributes): Relation | undefined {
  return relations.get(qualifiedResource(attrs.group, attrs.resource))?.(node, attrs)
}

/** Asks the pods store: a lookup in its index of pod references, or the pod's binding. */
export async function isRelated(
  env: StoreBindings,
  node: string,
  relation: Relation,
): Promise<boolean> {
  if (relation.kind === 'bound')
    return (await boundNode(env, relation.namespace, relation.name)) === node
  if (relation.kind === 'volume') return volumeRelated(env, node, relation.name, relation.verb)
  const pods = findResource('', 'v1', 'pods')!
  return storeFor(env, pods).nodeRefers(node, relation.resource, relation.namespace, relation.name)
}

/** spec.nodeName of a stored pod ('' when unbound), or undefined when there is no such pod. */
export async function boundNode(
  env: StoreBindings,
  namespace: string,
  name: string,
): Promise<string | undefined> {
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
async function volumeRelated(
  env: StoreBindings,
  node: string,
  name: string,
  verb: string,
): Promise<boolean> {
  const def = findResource('', 'v1', 'persistentvolumes')!
  const res = await storeFor(env, def).get({ def, name })
  if (!res.ok) return false
  const pv = JSON.parse(res.value) as KubeObject & {
    spec?: { claimRef?: { namespace?: string; name?: string } }
  }
  if (pv.metadata.labels?.[LOCAL_PATH_NODE_LABEL] === node) return true
  if (verb !== 'get') return false
  const ref = pv.spec?.claimRef
  if (!ref?.namespace || !ref.name) return false
  const pods = findResource('', 'v1', 'pods')!
  return storeFor(env, pods).nodeRefers(node, 'persistentvolumeclaims', ref.namespace, ref.name)
}
