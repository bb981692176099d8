import type { ApiBindings } from '../bindings'
import type { KubeObject } from '../../apimachinery/types'
import { ApiError, badRequest, failure, success } from '../../apimachinery/status'
import { findResource } from '../../apis/registry'
import type { ResourceDef } from '../../apis/resource-def'
import { decideEviction } from '../../apis/policy/eviction'
import { storeFor } from '../../store-client/stores'
import { deleteOptions, writeOptions } from '../http/query'
import { jsonBody } from '../http/respond'
import { unwrap } from '../../apimachinery/status'

const budgets = findResource('policy', 'v1', 'poddisruptionbudgets')!

/** How many times an eviction re-reads a budget another eviction changed first (EvictionsRetry). */
const attempts = 20

/**
 * POST pods/{name}/eviction (policy/v1 Eviction): deletes the pod unless the PodDisruptionBudget
 * covering it allows no disruption, then 429 TooManyRequests. An allowed eviction is first
 * charged to the budget (disruptionsAllowed less one, the pod in status.disruptedPods), written
 * with the budget's resourceVersion as precondition so that concurrent evictions cannot spend
 * the same disruption; a conflict re-reads the budget and decides again.
 */
export async function servePodEviction(
  req: Request,
  env: ApiBindings,
  def: ResourceDef,
  namespace: string,
  name: string,
  body: Record<string, unknown>,
): Promise<Response> {
  const q = new URL(req.url).searchParams
  const evictionName = (body.metadata as { name?: unknown } | undefined)?.name
  if (typeof evictionName === 'string' && evictionName !== '' && evictionName !== name)
    throw new ApiError(badRequest('name in URL does not match name in Eviction object'))
  const deleteBody = (body.deleteOptions ?? undefined) as Record<string, unknown> | undefined
  const opts = deleteOptions(q, deleteBody)
  const dryRun = !!writeOptions(q).dryRun || opts.dryRun
  const pods = storeFor(env, def)
  const target = { def, namespace, name }
  for (let attempt = 0; attempt < attempts; attempt++) {
    const pod = JSON.parse(unwrap(await pods.get(target))) as KubeObject
    const listed = unwrap(await storeFor(env, budgets).list(budgets.plural, { namespace }))
    const decision = decideEviction(
      pod,
      listed.items.map((t) => JSON.parse(t) as KubeObject),
      Date.now(),
    )
    if (decision.type === 'refuse') throw new ApiError(decision.status)
    if (decision.type === 'charge' && !dryRun) {
      const pdb = decision.pdb
      const res = await storeFor(env, budgets).update(
        { def: budgets, namespace, name: pdb.metadata.name ?? '' },
        { ...pdb, status: decision.status },
        'status',
        {},
      )
      if (!res.ok) {
        const failed = res.status
        if (failed.code === 409) continue
        throw new ApiError(failed)
      }
    }
    unwrap(await pods.delete(target, { ...opts, dryRun }))
    return jsonBody(success(undefined, 201), 201)
  }
  throw new ApiError(
    failure(
      429,
      'TooManyRequests',
      'too many concurrent evictions of pods under this disruption budget, try again',
      { retryAfterSeconds: 1 },
    ),
  )
}
