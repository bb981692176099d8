export { namespaceController, type NamespaceControllerOptions } from './controller'
export { namespacedResources } from './resources'
export { KUBERNETES_FINALIZER } from './reconcile'
