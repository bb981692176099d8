/** Each kind's API module (./types.ts), found by the kind's group and resource. */
import { qualifiedResource } from '../../apimachinery/status'
import { admissionGroup } from '../../apis/resource-table/extensions'
import { rbacGroup } from '../../apis/resource-table/access'
import type { ResourceDef } from '../../apis/resource-def'
import type { KindApi } from './types'
import { admissionConfigurationsApi } from './admission-configurations'
import { customResourceDefinitionsApi } from './custom-resource-definitions'
import { ingressesApi } from './ingresses'
import { namespacesApi } from './namespaces'
import { podsApi } from './pods'
import { rbacApi } from './rbac'
import { priorityClassesApi, runtimeClassesApi } from './scheduling-classes'
import { serviceAccountsApi } from './service-accounts'

const byGroup: Record<string, Record<string, KindApi>> = {
  '': { pods: podsApi, namespaces: namespacesApi, serviceaccounts: serviceAccountsApi },
  'networking.k8s.io': { ingresses: ingressesApi },
  'scheduling.k8s.io': { priorityclasses: priorityClassesApi },
  'node.k8s.io': { runtimeclasses: runtimeClassesApi },
  'apiextensions.k8s.io': { customresourcedefinitions: customResourceDefinitionsApi },
  [admissionGroup]: {
    mutatingwebhookconfigurations: admissionConfigurationsApi,
    validatingwebhookconfigurations: admissionConfigurationsApi,
    validatingadmissionpolicies: admissionConfigurationsApi,
    validatingadmissionpolicybindings: admissionConfigurationsApi,
  },
  [rbacGroup]: {
    roles: rbacApi,
    rolebindings: rbacApi,
    clusterroles: rbacApi,
    clusterrolebindings: rbacApi,
  },
}

const apis = new Map<string, KindApi>(
  Object.entries(byGroup).flatMap(([group, kinds]) =>
    Object.entries(kinds).map(
      ([resource, api]) => [qualifiedResource(group, resource), api] as const,
    ),
  ),
)

/** The built-in resources with an API module, as `resource` or `resource.group`. */
export const kindsWithApis: readonly string[] = [...apis.keys()]

const genericApi: KindApi = Object.freeze({})

/** What the API does for the kind `def` serves beyond the generic handler; nothing for a custom resource. */
export function kindApiOf(def: Pick<ResourceDef, 'group' | 'plural' | 'custom'>): KindApi {
  if (def.custom) return genericApi
  return apis.get(qualifiedResource(def.group, def.plural)) ?? genericApi
}
