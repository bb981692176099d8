/**
 * The param authorization of ValidatingAdmissionPolicy and binding writes (upstream's registry
 * strategies, authz.go): whoever sets a policy's paramKind must be allowed to `get` every object of
 * that kind, and whoever sets a binding's paramRef must be allowed to `get` the object it names,
 * since the policy reads params with the server's own authority. A create, or an update that
 * changes the paramKind or paramRef, is refused with 422 (a Forbidden cause on the field) when the
 * check fails on the exact object stored (./guarded-write.ts); system:masters is never checked. The
 * cluster's authorizer answers whether the writer may read the params (./policies/authorizer.ts).
 */
import type { AdmissionBindings } from '../admission/bindings'
import type { KubeObject } from '../apimachinery/types'
import { invalid, qualifiedResource } from '../apimachinery/status'
import { forbidden, toStatusCause } from '../apimachinery/field-errors'
import { mastersGroup, type UserInfo } from '../apimachinery/user-info'
import { findResource } from '../apis/registry'
import { admissionGroup } from '../apis/resource-table/extensions'
import type { ResourceDef } from '../apis/resource-def'
import type {
  AdmissionPolicy,
  AdmissionPolicyBinding,
} from '../apis/admissionregistration/admission-policy'
import { servedResources } from '../store-client/custom-resources'
import { storeFor } from '../store-client/stores'
import type { WriteGuard } from './guarded-write'
import { admissionAuthorizer } from './policies/authorizer'

type Refusal = { field: string; message: string } | undefined
type ParamsRefusal = (
  env: AdmissionBindings,
  user: UserInfo,
  obj: KubeObject,
  old: KubeObject | undefined,
) => Promise<Refusal>

/** The guard of `user`'s writes to a policy or binding: it may read the params the object names; undefined for system:masters and the other kinds. */
export function paramsGuard(
  env: AdmissionBindings,
  user: UserInfo,
  def: ResourceDef,
): WriteGuard | undefined {
  const refusal = paramsRefusals.get(qualifiedResource(def.group, def.plural))
  if (!refusal || user.groups.includes(mastersGroup)) return undefined
  return async (obj, old) => {
    const why = await refusal(env, user, obj, old)
    return why
      ? invalid(def.group, def.kind, obj.metadata.name ?? '', [
          toStatusCause(forbidden(why.field, why.message)),
        ])
      : undefined
  }
}

/** The group, version and resource a paramKind names; `*` for what cannot be told (as upstream). */
async function paramResource(
  env: AdmissionBindings,
  paramKind: { apiVersion?: string; kind?: string },
): Promise<{ group: string; version: string; resource: string }> {
  const apiVersion = paramKind.apiVersion ?? ''
  const parts = apiVersion.split('/')
  if (parts.length > 2) return { group: '*', version: '*', resource: '*' }
  const [group, version] = parts.length === 2 ? (parts as [string, string]) : ['', apiVersion]
  const def = (await servedResources(env)).find(
    (d) => d.group === group && d.version === version && d.kind === paramKind.kind,
  )
  return { group, version, resource: def?.plural ?? '*' }
}

/** How Go's %v prints the request's user.Info, as upstream's messages show it. */
const userText = (u: UserInfo) =>
  `&{${u.username} ${u.uid ?? ''} [${u.groups.join(' ')}] map[${Object.entries(u.extra ?? {})
    .map(([k, v]) => `${k}:[${v.join(' ')}]`)
    .join(' ')}]}`

async function allowedGet(
  env: AdmissionBindings,
  user: UserInfo,
  target: { group: string; version: string; resource: string; name: string; namespace: string },
): Promise<boolean> {
  const attrs = {
    verb: 'get',
    group: target.group,
    version: target.version,
    resource: target.resource,
    name: target.name,
    ...(target.namespace ? { namespace: target.namespace } : {}),
  }
  return (await admissionAuthorizer(env))(user, attrs).allowed
}

async function policyRefusal(
  env: AdmissionBindings,
  user: UserInfo,
  policy: AdmissionPolicy,
  old: AdmissionPolicy | undefined,
): Promise<Refusal> {
  const paramKind = policy.spec?.paramKind
  if (!paramKind) return undefined
  const was = old?.spec?.paramKind
  if (was && was.apiVersion === paramKind.apiVersion && was.kind === paramKind.kind)
    return undefined
  const { group, version, resource } = await paramResource(env, paramKind)
  if (await allowedGet(env, user, { group, version, resource, name: '*', namespace: '*' }))
    return undefined
  return {
    field: 'spec.paramKind',
    message: `user ${userText(user)} must have "get" permission on all objects of the referenced paramKind (kind=${paramKind.kind}, apiVersion=${paramKind.apiVersion})`,
  }
}

async function bindingRefusal(
  env: AdmissionBindings,
  user: UserInfo,
  binding: AdmissionPolicyBinding,
  old: AdmissionPolicyBinding | undefined,
): Promise<Refusal> {
  const ref = binding.spec?.paramRef
  if (!ref) return undefined
  if (old?.spec?.paramRef && JSON.stringify(old.spec.paramRef) === JSON.stringify(ref))
    return undefined
  const policyName = binding.spec?.policyName ?? ''
  const policyDef = findResource(admissionGroup, 'v1', 'validatingadmissionpolicies')!
  const got = policyName
    ? await storeFor(env, policyDef).get({ def: policyDef, name: policyName })
    : undefined
  const paramKind = got?.ok ? (JSON.parse(got.value) as AdmissionPolicy).spec?.paramKind : undefined
  const { group, version, resource } = paramKind
    ? await paramResource(env, paramKind)
    : { group: '*', version: '*', resource: '*' }
  if (
    await allowedGet(env, user, {
      group,
      version,
      resource,
      name: ref.name ?? '',
      namespace: ref.namespace ?? '',
    })
  )
    return undefined
  const message = got?.ok
    ? `user ${userText(user)} does not have "get" permission on the object referenced by paramRef`
    : `unable to get policy ${policyName} to determine minimum required permissions and user ${userText(user)} does not have "get" permission for all groups, versions and kinds`
  return { field: 'spec.paramRef', message }
}

/** The refusal of each resource whose objects name params. */
const paramsRefusals = new Map<string, ParamsRefusal>([
  [
    qualifiedResource(admissionGroup, 'validatingadmissionpolicies'),
    (env, user, obj, old) =>
      policyRefusal(env, user, obj as AdmissionPolicy, old as AdmissionPolicy | undefined),
  ],
  [
    qualifiedResource(admissionGroup, 'validatingadmissionpolicybindings'),
    (env, user, obj, old) =>
      bindingRefusal(
        env,
        user,
        obj as AdmissionPolicyBinding,
        old as AdmissionPolicyBinding | undefined,
      ),
  ],
])
