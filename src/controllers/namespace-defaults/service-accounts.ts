import type { KubeObject } from '../../apimachinery/types'
import { namespaces } from '../resources'
import type { Cache, ControllerDefinition, Outcome, ResourceRef } from '../runtime/types'
import { isActiveNamespace, perNamespaceController } from './namespaces'

export const serviceAccounts: ResourceRef = Object.freeze({
  group: '',
  version: 'v1',
  plural: 'serviceaccounts',
})

/** The ServiceAccount every namespace gets. */
export const defaultServiceAccount = 'default'

/**
 * The serviceaccount controller of kube-controller-manager: every active namespace has the
 * `default` ServiceAccount; one deleted is created again. An existing one is never changed.
 */
export function serviceAccountsController(): ControllerDefinition {
  return perNamespaceController(
    'serviceaccount',
    serviceAccounts,
    defaultServiceAccount,
    ensureDefaultServiceAccount,
  )
}

export function ensureDefaultServiceAccount(namespace: string, cache: Cache): Outcome {
  if (!isActiveNamespace(cache.get(namespaces, undefined, namespace))) return { actions: [] }
  if (cache.get(serviceAccounts, namespace, defaultServiceAccount)) return { actions: [] }
  const object: KubeObject = {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: defaultServiceAccount, namespace },
  }
  return { actions: [{ type: 'create', resource: serviceAccounts, object }] }
}
