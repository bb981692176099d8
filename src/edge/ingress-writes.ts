/**
 * Ingress writes and the edge's host ownership (../apis/host-ownership.ts). A host belongs to the
 * namespace that claimed it first, its claims dated by their Ingress's creation; so an update (or
 * an apply) that would make an Ingress take a claim, or its being served, from another namespace
 * is refused with 403 Forbidden, checked on the exact object the write stores. A write whose
 * Ingress the edge will not serve is made, and answered with a warning saying why (the edge-status
 * controller also records it as a `HostClaimed` event and leaves the Ingress without an address).
 */
import type { ServiceBindings } from '../service-client/bindings'
import type { KubeObject } from '../apimachinery/types'
import { admissionForbidden } from '../admission/forbidden'
import type { WriteGuard } from '../admission/guarded-write'
import { notServedMessage } from '../apis/host-ownership'
import { refusalOfWrite, takenByWrite } from '../apis/host-takeover'
import type { ResourceDef } from '../apis/resource-def'
import { appendWarnings } from '../api/http/respond'
import { edgeIngresses } from './edge-objects'

type Claims = Awaited<ReturnType<typeof edgeIngresses>>

type Serve = (req: Request, guard?: WriteGuard) => Promise<Response>

/**
 * A create, update or patch of an Ingress (its status excepted): updates and patches pass the
 * takeover guard; a written Ingress the edge will not serve is answered with a warning.
 */
export async function serveIngressWrite(
  req: Request,
  env: ServiceBindings,
  def: ResourceDef,
  subresource: string | undefined,
  serve: Serve,
): Promise<Response> {
  if (subresource !== undefined || !['POST', 'PUT', 'PATCH'].includes(req.method)) return serve(req)
  let checked: Claims | undefined
  const guard: WriteGuard = async (obj) => {
    const claims = (checked = await edgeIngresses(env))
    const taken = takenByWrite(claims.ingresses, obj, claims.settings)
    return taken ? admissionForbidden(def, obj.metadata.name ?? '', taken) : undefined
  }
  const res = await serve(req, req.method === 'POST' ? undefined : guard)
  if (res.status >= 300) return res
  const text = await res.text()
  let written: KubeObject
  try {
    written = JSON.parse(text) as KubeObject
  } catch {
    return new Response(text, res)
  }
  // The guard's reads are the Ingresses the stored object was checked against; a create reads them once made.
  const claims = checked ?? (await edgeIngresses(env))
  const reasons = refusalOfWrite(claims.ingresses, written, claims.settings)
  const headers = new Headers(res.headers)
  if (reasons) appendWarnings(headers, [`Ingress ${notServedMessage(reasons)}`])
  return new Response(text, { status: res.status, statusText: res.statusText, headers })
}
