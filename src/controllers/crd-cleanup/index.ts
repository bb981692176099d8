import type { ControllerDefinition } from '../runtime/types'
import { customResourceDefinitions as crds } from '../resources'
import { isCleaningUp, reconcileCrd } from './reconcile'
import { registerActions } from '../runtime/dispatch'
import { crdCleanupActions } from './effects'

// Purging a CRD's objects is this controller's own action, performed by the runner as any other.
registerActions(crdCleanupActions)

/** Empties a deleted CustomResourceDefinition of its objects, then lets it go. Keys are CRD names. */
export function crdCleanupController(): ControllerDefinition {
  return {
    name: 'crd-cleanup',
    watches: {
      kinds: [crds],
      keysFor: (_resource, object) => (isCleaningUp(object) ? [object.metadata.name ?? ''] : []),
      allKeys: (cache) =>
        cache
          .list(crds)
          .filter((crd) => isCleaningUp(crd))
          .map((crd) => crd.metadata.name ?? ''),
    },
    reconcile: reconcileCrd,
  }
}
