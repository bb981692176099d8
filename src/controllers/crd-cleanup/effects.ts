import type { KubeObject } from '../../apimachinery/types'
import type { ActionHandlers } from '../runtime/action-context'
import { clusterOf } from '../runtime/dispatch'
import { record } from '../runtime/object-writes'
import { customResourceDefinitions } from '../resources'
import { purgeCustomResources } from './purge'

declare module '../runtime/actions' {
  interface Actions {
    /** deletes every object of a terminating CRD's kind, then releases the CRD's cleanup finalizer */
    purgeCustomResources: { type: 'purgeCustomResources'; crd: KubeObject }
  }
}

/** The CRD cleanup's own action: emptying a CRD's store, in the stores. */
export const crdCleanupActions: ActionHandlers = {
  async purgeCustomResources(action, ctx) {
    const done = await purgeCustomResources(clusterOf(ctx, 'purging custom resources'), action.crd)
    if (done) record(ctx.caches, customResourceDefinitions, done)
  },
}
