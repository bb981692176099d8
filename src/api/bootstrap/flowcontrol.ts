/**
 * The API Priority and Fairness configuration kube-apiserver ensures at start (its
 * priority-and-fairness-config-producer): priority levels first, then flow schemas, each by the
 * auto-update rules of src/apis/flowcontrol/ensure.ts. The priority-and-fairness controller keeps
 * them so after.
 */
import type { ApiBindings } from '../bindings'
import type { KubeObject } from '../../apimachinery/types'
import { findResource } from '../../apis/registry'
import { bootstrapNames } from '../../apis/flowcontrol/bootstrap'
import { ensurePlan } from '../../apis/flowcontrol/ensure'
import { flowcontrolGroup, flowSchemaKind, priorityLevelKind } from '../../apis/flowcontrol/names'
import { storeFor } from '../../store-client/stores'
import { allItems, listPages } from '../../store-client/list-pages'

const opts = { fieldManager: 'api-priority-and-fairness-config-producer-v1' }

export async function ensureFlowcontrolBootstrap(env: ApiBindings): Promise<void> {
  for (const [plural, kind] of [
    ['prioritylevelconfigurations', priorityLevelKind],
    ['flowschemas', flowSchemaKind],
  ] as const) {
    const def = findResource(flowcontrolGroup, 'v1', plural)!
    const store = storeFor(env, def)
    const stored = new Map(
      (await allItems(listPages(env, def, {})))
        .map((text) => JSON.parse(text) as KubeObject)
        .map((o) => [o.metadata.name!, o]),
    )
    const names = new Set([...bootstrapNames(kind), ...stored.keys()])
    await Promise.all(
      [...names].map(async (name) => {
        const plan = ensurePlan(kind, name, stored.get(name))
        const target = { def, name }
        if (plan?.type === 'create') await store.create(target, plan.object, opts)
        if (plan?.type === 'update') await store.update(target, plan.object, undefined, opts)
        if (plan?.type === 'delete')
          await store.delete(target, {
            preconditions: { resourceVersion: stored.get(name)?.metadata.resourceVersion },
          })
      }),
    )
  }
}
