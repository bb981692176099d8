/**
 * The param objects a binding's paramRef names (generic.CollectParams): one by name, or all that a
 * label selector picks, of the policy's paramKind (a built-in kind or one a CRD serves), in the
 * paramRef's namespace, else the request's. None found is an error when parameterNotFoundAction is
 * Deny, and no evaluation at all when it is Allow. Params are read from their store on each request;
 * the paramKind is looked up among the built-in kinds and the CRDs this isolate has read in the last
 * second, and read afresh only when it is not among them.
 */
import type { AdmissionBindings } from '../bindings'
import type { KubeObject } from '../../apimachinery/types'
import { matchesLabels, selectorFromLabelSelector } from '../../apimachinery/labels'
import { storedResources } from '../../apis/registry'
import type { ResourceDef } from '../../apis/resource-def'
import type {
  AdmissionPolicy,
  AdmissionPolicyBinding,
} from '../../apis/admissionregistration/admission-policy'
import { storeFor } from '../../store-client/stores'
import { allItems, listPages } from '../../store-client/list-pages'
import { customResources } from '../../store-client/custom-resources'

/** `[null]` when the policy takes no params or the binding names none (params is null in CEL). */
export type Params = { ok: true; params: (KubeObject | null)[] } | { ok: false; error: string }

async function paramDef(
  env: AdmissionBindings,
  apiVersion: string,
  kind: string,
): Promise<ResourceDef | undefined> {
  const [group, version] = apiVersion.includes('/')
    ? (apiVersion.split('/') as [string, string])
    : ['', apiVersion]
  const find = (defs: readonly ResourceDef[]) =>
    defs.find((d) => d.group === group && d.version === version && d.kind === kind)
  return (
    find(storedResources) ??
    find(await customResources(env)) ??
    find(await customResources(env, true))
  )
}

export async function collectParams(
  env: AdmissionBindings,
  policy: AdmissionPolicy,
  binding: AdmissionPolicyBinding,
  requestNamespace: string,
): Promise<Params> {
  const paramKind = policy.spec?.paramKind
  const ref = binding.spec?.paramRef
  if (!paramKind || !ref) return { ok: true, params: [null] }
  const def = await paramDef(env, paramKind.apiVersion ?? '', paramKind.kind ?? '')
  if (!def)
    return {
      ok: false,
      error: `paramKind kind \`${paramKind.apiVersion}, Kind=${paramKind.kind}\` not known`,
    }
  let namespace: string | undefined
  if (def.namespaced) {
    namespace = ref.namespace || requestNamespace
    if (!namespace)
      return {
        ok: false,
        error:
          'cannot use namespaced paramRef in policy binding that matches cluster-scoped resources',
      }
  } else if (ref.namespace)
    return {
      ok: false,
      error: 'paramRef.namespace must not be provided for a cluster-scoped `paramKind`',
    }

  let params: KubeObject[] = []
  if (ref.name) {
    const got = await storeFor(env, def).get({ def, namespace, name: ref.name })
    if (got.ok) params = [JSON.parse(got.value) as KubeObject]
    else {
      const { status } = got
      if (status.code !== 404)
        return { ok: false, error: status.message ?? 'the param could not be read' }
    }
  } else if (ref.selector) {
    const selector = selectorFromLabelSelector(ref.selector)
    const items = await allItems(listPages(env, def, { namespace }))
    params = items
      .map((text) => JSON.parse(text) as KubeObject)
      .filter((o) => matchesLabels(selector, o.metadata.labels ?? {}))
  } else return { ok: false, error: 'one of name or selector must be provided' }

  if (!params.length && (ref.parameterNotFoundAction ?? 'Deny') === 'Deny')
    return {
      ok: false,
      error: 'no params found for policy binding with `Deny` parameterNotFoundAction',
    }
  return { ok: true, params }
}
