import type { ActionHandlers } from '../runtime/action-context'
import { applyAction, clusterOf } from '../runtime/dispatch'
import type { ResourceRef } from '../runtime/types'
import { emptyNamespace } from './empty'
import { namespaces } from './resources'

declare module '../runtime/actions' {
  interface Actions {
    /**
     * deletes, store-side, every object of the given kinds and of every custom resource in a
     * terminating namespace; then finalizes it if nothing is left, or reports in its status what remains
     */
    emptyNamespace: { type: 'emptyNamespace'; name: string; resources: ResourceRef[] }
  }
}

/** The namespace controller's own action: emptying a namespace, in the stores. */
export const namespaceActions: ActionHandlers = {
  async emptyNamespace(action, ctx, now) {
    const ns = ctx.caches.get(namespaces, undefined, action.name)
    if (!ns) return
    const next = await emptyNamespace(
      clusterOf(ctx, 'emptying a namespace'),
      ns,
      action.resources,
      now,
    )
    for (const a of next) await applyAction(ctx, a, now)
  },
}
