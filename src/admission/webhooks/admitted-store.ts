/**
 * A kind's store whose writes pass the admission webhooks and policies first (./admit-write), for
 * the API's handlers and the controllers alike (kube-apiserver admits every write, whoever makes
 * it).
 */
import type { AdmissionBindings } from '../bindings'
import type { KubeObject } from '../../apimachinery/types'
import { ApiError } from '../../apimachinery/status'
import { admissionGroup } from '../../apis/resource-table/extensions'
import type { ResourceDef } from '../../apis/resource-def'
import { storeFor } from '../../store-client/stores'
import { deletePages, listPages } from '../../store-client/list-pages'
import type { UserInfo } from '../../apimachinery/user-info'
import type {
  DeleteOptions,
  ListOptions,
  ListResult,
  PatchType,
  Target,
  WriteOptions,
} from '../../apis/store-options'
import { admitWrite, type Step, type Write } from './admit-write'
import { configuredWebhooks } from './configurations'
import { rulesMatch, type RuleAttributes } from './match'
import { configuredPolicies } from '../policies/configurations'
import { policyMayApply } from '../policies/match'
import type { WriteGuard } from '../guarded-write'
import { withPodSecurity } from '../pod-security/admit'
import type { PatchSubresource, WriteSubresource } from '../../apis/write-subresource'

/** `guard`, when given, must pass on the object each create, update and patch stores (see ../guarded-write). */
export function admittedStore(
  env: AdmissionBindings,
  def: ResourceDef,
  user: UserInfo,
  guard?: WriteGuard,
) {
  const store = storeFor(env, def)
  const merged = <O extends WriteOptions>(opts: O, step: Step): O => ({
    ...opts,
    dryRun: !!opts.dryRun || !!step.dryRun,
    ...(step.admission ? { admission: step.admission } : {}),
  })
  const admit = (
    t: Target,
    subresource: WriteSubresource | undefined,
    op: 'create' | 'update' | 'delete',
    opts: WriteOptions,
    options: Record<string, unknown>,
    write: Write,
    body?: KubeObject,
  ) =>
    admitWrite(
      {
        env,
        def,
        user,
        t,
        subresource,
        op,
        dryRun: !!opts.dryRun,
        options,
        guard: op === 'delete' ? undefined : guard,
      },
      withPodSecurity({ env, def, user, t, subresource, op, dryRun: !!opts.dryRun, body }, write),
    )
  return {
    create: (t: Target, body: KubeObject, opts: WriteOptions) =>
      admit(
        t,
        undefined,
        'create',
        opts,
        { kind: 'CreateOptions', ...writeOptionsOf(opts) },
        (step) => store.create(t, body, merged(opts, step)),
        body,
      ),
    update: (
      t: Target,
      body: KubeObject,
      subresource: WriteSubresource | undefined,
      opts: WriteOptions,
    ) =>
      admit(
        t,
        subresource,
        'update',
        opts,
        { kind: 'UpdateOptions', ...writeOptionsOf(opts) },
        (step) => store.update(t, body, subresource, merged(opts, step)),
      ),
    patch: (
      t: Target,
      type: PatchType,
      patch: unknown,
      subresource: PatchSubresource | undefined,
      opts: WriteOptions,
    ) =>
      admit(
        t,
        subresource,
        'update',
        opts,
        { kind: 'PatchOptions', ...writeOptionsOf(opts) },
        (step) => store.patch(t, type, patch, subresource, merged(opts, step)),
      ),
    delete: (t: Target, opts: DeleteOptions) =>
      admit(
        t,
        undefined,
        'delete',
        opts,
        { kind: 'DeleteOptions', ...deleteOptionsOf(opts) },
        (step) => store.delete(t, merged(opts, step)),
      ),
    /**
     * deletecollection: in the store page by page, unless a DELETE webhook's rules name the
     * resource; then each listed object is deleted as one admitted delete (as kube-apiserver
     * admits each item), and the first refusal ends the request.
     */
    deletePages: async function* (
      namespace: string | undefined,
      list: ListOptions,
      opts: DeleteOptions,
    ): AsyncGenerator<ListResult> {
      const attributes: RuleAttributes = {
        operation: 'DELETE',
        group: def.group,
        version: def.version,
        resource: def.plural,
        subresource: '',
        namespaced: def.namespaced,
        namespace: namespace ?? '',
      }
      const [hooks, policies] =
        def.group === admissionGroup
          ? [[], []]
          : await Promise.all([configuredWebhooks(env), configuredPolicies(env)])
      if (
        !hooks.some((h) => rulesMatch(h.hook, attributes)) &&
        !policies.some((p) => policyMayApply(p, attributes))
      )
        return yield* deletePages(env, def, namespace, list, opts)
      for await (const page of listPages(env, def, {
        ...list,
        namespace,
        limit: undefined,
        continue: undefined,
      })) {
        const items: string[] = []
        for (const text of page.items) {
          const o = JSON.parse(text) as KubeObject
          const t = { def, namespace: o.metadata.namespace, name: o.metadata.name ?? '' }
          const res = await admit(
            t,
            undefined,
            'delete',
            opts,
            { kind: 'DeleteOptions', ...deleteOptionsOf(opts) },
            (step) => store.delete(t, merged(opts, step)),
          )
          if (res.ok) items.push(res.value.object)
          else if (res.status.code !== 404) throw new ApiError(res.status)
        }
        yield { items, resourceVersion: page.resourceVersion }
      }
    },
  }
}

function writeOptionsOf(opts: WriteOptions): Record<string, unknown> {
  return {
    ...(opts.fieldManager ? { fieldManager: opts.fieldManager } : {}),
    ...(opts.dryRun ? { dryRun: ['All'] } : {}),
  }
}

function deleteOptionsOf(opts: DeleteOptions): Record<string, unknown> {
  return {
    ...(opts.gracePeriodSeconds !== undefined
      ? { gracePeriodSeconds: opts.gracePeriodSeconds }
      : {}),
    ...(opts.propagationPolicy ? { propagationPolicy: opts.propagationPolicy } : {}),
    ...(opts.preconditions ? { preconditions: opts.preconditions } : {}),
    ...(opts.dryRun ? { dryRun: ['All'] } : {}),
  }
}
