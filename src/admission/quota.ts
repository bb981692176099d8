import type { AdmissionBindings } from './bindings'
import type { KubeObject } from '../apimachinery/types'
import { ApiError, conflict, staleObjectMessage } from '../apimachinery/status'
import { quantityListJson } from '../apimachinery/quantity'
import { findResource } from '../apis/registry'
import { checkQuotas } from '../apis/quota/check'
import { isTrackedKind } from '../apis/quota/tracked'
import { storeFor } from '../store-client/stores'
import type { Target, WriteOptions } from '../apis/store-options'
import { unwrap } from '../apimachinery/status'
import { admissionForbidden } from './forbidden'
import type { AdmissionLookups } from './lookups'

const resourceQuotas = findResource('', 'v1', 'resourcequotas')!

/** How many times a charge is re-read and retried when another write moved a quota first. */
const chargeAttempts = 8

/**
 * Quota admission for a create (plugin/pkg/admission/resourcequota): the object is first checked
 * as the store would store it (a dry run, so an invalid object is refused for what it is and never
 * charged), then counted against every quota of its namespace that selects it. Over a quota it is
 * refused with 403 Forbidden and upstream's message; otherwise each quota's status.used is raised
 * by what the object uses, written with the quota's resourceVersion as precondition, so that
 * concurrent creates in any isolate never both take the last unit: a conflict re-reads the quotas
 * and checks again. A dry run checks and charges nothing. `checked`: the body is already as it
 * will be stored (no dry run needed).
 */
export async function admitQuota(
  env: AdmissionBindings,
  lookups: AdmissionLookups,
  target: Target,
  body: KubeObject,
  opts: WriteOptions,
  checked = false,
): Promise<void> {
  const { def, namespace } = target
  if (!namespace || !def.namespaced || def.custom || !isTrackedKind(def)) return
  let quotas = await lookups.quotas(namespace)
  if (!quotas.length) return
  const stored = checked
    ? body
    : (JSON.parse(
        unwrap(
          await storeFor(env, def).create(target, structuredClone(body), { ...opts, dryRun: true }),
        ).object,
      ) as KubeObject)
  const charged = new Set<string>()
  for (let attempt = 0; attempt < chargeAttempts; attempt++) {
    const decision = checkQuotas(
      def,
      stored,
      quotas.filter((q) => !charged.has(q.metadata.uid ?? '')),
      Date.now(),
    )
    if (!decision.ok)
      throw new ApiError(admissionForbidden(def, stored.metadata.name ?? '', decision.message))
    if (opts.dryRun) return
    let moved = false
    for (const { quota, used } of decision.charges) {
      const next = {
        ...quota,
        status: { ...(quota.status as object), used: quantityListJson(used) },
      }
      const res = await storeFor(env, resourceQuotas).update(
        { def: resourceQuotas, namespace, name: quota.metadata.name ?? '' },
        next,
        'status',
        {},
      )
      if (res.ok) {
        lookups.quotaWritten(JSON.parse(res.value.object) as KubeObject)
        charged.add(quota.metadata.uid ?? '')
        continue
      }
      const failed = res.status
      if (failed.code !== 409 && failed.code !== 404) throw new ApiError(failed)
      moved = true
      break
    }
    if (!moved) return
    quotas = await lookups.quotas(namespace, true)
  }
  throw new ApiError(conflict('', resourceQuotas.plural, '', staleObjectMessage))
}
