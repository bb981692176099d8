/**
 * The CEL variables an admission expression sees for one request (cel.CreateAdmissionRequest and
 * the activation of k8s.io/apiserver's admission/plugin/cel): `object`, `oldObject`, `request`,
 * `namespaceObject` and, when the expressions name it, `authorizer` (the requesting user's, with
 * `authorizer.requestResource` the request's own resource).
 */
import type { KubeObject } from '../../apimachinery/types'
import type { UserInfo } from '../../apimachinery/user-info'
import { toCel } from '../../apis/admissionregistration/cel'
import { CelAuthorizer, type Authorize } from '../../apis/admissionregistration/cel-authz'
import type { RuleAttributes } from '../webhooks/match'

export interface CelRequest {
  attributes: RuleAttributes
  kind: { group: string; version: string; kind: string }
  name: string
  object?: KubeObject
  oldObject?: KubeObject
  /** the request's namespace, when the resource is namespaced and the namespace exists */
  namespace?: KubeObject
  user: UserInfo
  dryRun: boolean
  options?: Record<string, unknown>
}

/** The variables for this request; `authorize` given, `authorizer` too. */
export function celInput(r: CelRequest, authorize?: Authorize): Record<string, unknown> {
  const { attributes: a, kind } = r
  const resource = { group: a.group, version: a.version, resource: a.resource }
  const request = {
    kind,
    resource,
    subResource: a.subresource,
    requestKind: kind,
    requestResource: resource,
    requestSubResource: a.subresource,
    name: r.name,
    namespace: a.namespace,
    operation: a.operation,
    userInfo: {
      username: r.user.username,
      uid: r.user.uid ?? '',
      groups: r.user.groups,
      extra: r.user.extra ?? {},
    },
    dryRun: r.dryRun,
    options: r.options,
  }
  const isNamespace = a.group === '' && a.resource === 'namespaces'
  const input: Record<string, unknown> = {
    object: r.object ? toCel(r.object) : null,
    oldObject: r.oldObject ? toCel(r.oldObject) : null,
    request: toCel(request),
    namespaceObject: r.namespace && !isNamespace ? toCel(namespaceObjectOf(r.namespace)) : null,
  }
  if (authorize)
    input.authorizer = new CelAuthorizer(r.user, authorize, {
      group: a.group,
      resource: a.resource,
      subresource: a.subresource,
      namespace: a.namespace,
      name: r.name,
    })
  return input
}

/** What CEL sees of the namespace (cel.CreateNamespaceObject): its metadata, spec and status. */
function namespaceObjectOf(ns: KubeObject): Record<string, unknown> {
  const m = ns.metadata
  const metadata: Record<string, unknown> = {}
  for (const key of [
    'name',
    'generateName',
    'namespace',
    'labels',
    'annotations',
    'uid',
    'creationTimestamp',
    'deletionTimestamp',
    'deletionGracePeriodSeconds',
    'finalizers',
    'resourceVersion',
    'generation',
  ] as const) {
    if (m[key as keyof typeof m] !== undefined) metadata[key] = m[key as keyof typeof m]
  }
  return { metadata, spec: ns.spec ?? {}, status: ns.status ?? {} }
}
