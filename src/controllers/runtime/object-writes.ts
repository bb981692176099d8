import type { KubeObject } from '../../apimachinery/types'
import { namespacedKey, objectKey } from '../../apimachinery/object-key'
import { nameSuffix } from '../../apis/strategy'
import { namespaces, pods, resourceDefOf } from '../resources'
import type { ActionContext, ActionHandler, ActionHandlers } from './action-context'
import type { InformerCaches } from './cache'
import { controllerUser } from './identity'
import type { ResourceRef } from './resource-ref'
import { written } from './written'

/**
 * A copy of a new object with the name its generateName would draw: kube-apiserver names an
 * object before admission, so a refusal (`pods "web-7d4b9c-x5k2p" is forbidden: exceeded quota…`)
 * names it.
 */
function namedForAdmission(o: KubeObject): KubeObject {
  if (o.metadata.name || !o.metadata.generateName) return o
  return { ...o, metadata: { ...o.metadata, name: `${o.metadata.generateName}${nameSuffix()}` } }
}

/** The admitted object, with the name left for the store to draw when the action gave none (the store redraws on a collision). */
function unnamed(admitted: KubeObject, asked: KubeObject): KubeObject {
  if (asked.metadata.name) return admitted
  const { name: _drawn, ...metadata } = admitted.metadata
  return { ...admitted, metadata }
}

/** Writes a result into the cache: a write that finished a deletion removes the object. */
export function record(
  caches: InformerCaches,
  r: ResourceRef,
  result: { object: KubeObject; deleted?: boolean },
): void {
  const o = result.object
  if (result.deleted) caches.of(r).remove(objectKey(o), Number(o.metadata.resourceVersion))
  else caches.of(r).put(o)
}

/** A kind's store whose writes pass the admission webhooks as the controller's user. */
const admitted = (ctx: ActionContext, r: ResourceRef) =>
  ctx.stores.admitted(resourceDefOf(r), controllerUser(ctx.controller))

const create: ActionHandler<'create'> = async (action, ctx, _now, lookups) => {
  const def = resourceDefOf(action.resource)
  const target = {
    def,
    namespace: action.object.metadata.namespace,
    name: action.object.metadata.name ?? '',
  }
  const o = namedForAdmission(action.object)
  await ctx.stores.admitCreate(def, target, o, lookups, controllerUser(ctx.controller))
  const res = await admitted(ctx, action.resource).create(target, unnamed(o, action.object), {})
  ctx.caches.of(action.resource).put(written(res).object)
}

/** An update of the whole object, or of its status. */
const update: ActionHandler<'update' | 'updateStatus'> = async (action, ctx) => {
  const o = action.object
  const status = action.type === 'updateStatus'
  // A projection written back would erase every field the cache does not keep.
  if (!ctx.caches.keepsWhole(action.resource, status ? 'status' : undefined)) {
    throw new Error(
      `${ctx.controller} caches ${action.resource.plural} projected and may not ${status ? 'replace their status' : 'update them whole'}`,
    )
  }
  const def = resourceDefOf(action.resource)
  const res = await admitted(ctx, action.resource).update(
    { def, namespace: o.metadata.namespace, name: o.metadata.name ?? '' },
    o,
    status ? 'status' : undefined,
    {},
  )
  record(ctx.caches, action.resource, written(res))
}

const patch: ActionHandler<'patch'> = async (action, ctx) => {
  const def = resourceDefOf(action.resource)
  const res = await admitted(ctx, action.resource).patch(
    { def, namespace: action.namespace, name: action.name },
    'merge',
    action.patch,
    action.subresource,
    {},
  )
  record(ctx.caches, action.resource, written(res))
}

const remove: ActionHandler<'delete'> = async (action, ctx) => {
  const def = resourceDefOf(action.resource)
  const key = namespacedKey(action.namespace, action.name)
  const res = await admitted(ctx, action.resource).delete(
    { def, namespace: action.namespace, name: action.name },
    {
      preconditions: action.preconditions,
      gracePeriodSeconds: action.gracePeriodSeconds,
      propagationPolicy: action.propagationPolicy,
    },
  )
  // As upstream controllers: an object already gone (or replaced under the same name) needs no delete.
  const failed = res.ok ? undefined : res.status
  if (failed && (failed.code === 404 || (failed.code === 409 && action.preconditions?.uid))) {
    ctx.caches.of(action.resource).remove(key, 0)
    return
  }
  const { object, pending } = written(res)
  if (pending) ctx.caches.of(action.resource).put(object)
  else ctx.caches.of(action.resource).remove(key, Number(object.metadata.resourceVersion))
}

const scale: ActionHandler<'scale'> = async (action, ctx) => {
  const def = resourceDefOf(action.resource)
  const body = {
    apiVersion: 'autoscaling/v1',
    kind: 'Scale',
    metadata: { name: action.name, namespace: action.namespace },
    spec: { replicas: action.replicas },
  }
  // The answer is the Scale, not the workload: the workload's change reaches the cache through its store.
  written(
    await admitted(ctx, action.resource).update(
      { def, namespace: action.namespace, name: action.name },
      body,
      'scale',
      {},
    ),
  )
}

const bind: ActionHandler<'bind'> = async (action, ctx) => {
  const def = resourceDefOf(pods)
  const res = await ctx.stores
    .store(def)
    .bind({ def, namespace: action.namespace, name: action.name }, action.nodeName, action.uid, {})
  ctx.caches.of(pods).put(written(res).object)
}

const finalize: ActionHandler<'finalize'> = async (action, ctx) => {
  const def = resourceDefOf(namespaces)
  const res = await ctx.stores
    .store(def)
    .update(
      { def, name: action.name },
      { metadata: { name: action.name }, spec: { finalizers: [] } },
      'finalize',
      {},
    )
  record(ctx.caches, namespaces, written(res))
}

/** The API writes every controller may ask for, each recording its result in the caches at once. */
export const objectWrites: ActionHandlers = {
  create,
  update,
  updateStatus: update,
  patch,
  delete: remove,
  scale,
  bind,
  finalize,
}
