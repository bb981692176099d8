/**
 * Writes to PriorityClasses and RuntimeClasses. A PriorityClass create, update or patch is first
 * run as a dry run, and its result must pass the Priority plugin's check (one global default at
 * most) before it is made; the built-in system classes cannot be deleted. Any write drops this
 * isolate's snapshot of the kind, which pod admission reads.
 */
import type { Env } from '../env'
import type { KubeObject } from '../apimachinery/types'
import type { ResourceDef } from '../apis/registry'
import { globalDefaultRefusal, systemPriorityClasses } from '../apis/priority-class'
import { admissionForbidden } from '../admission/pod-admission'
import { classSnapshot, forgetClasses } from '../admission/class-snapshot'
import type { RequestInfo } from './request-info'
import { dryRunTrial } from './body'

type Serve = (req: Request, env: Env, def: ResourceDef, info: RequestInfo) => Promise<Response>

export const isSchedulingClass = (def: ResourceDef): boolean =>
  (def.group === 'scheduling.k8s.io' && def.plural === 'priorityclasses') || (def.group === 'node.k8s.io' && def.plural === 'runtimeclasses')

export async function serveClassWrite(req: Request, env: Env, def: ResourceDef, info: RequestInfo, serve: Serve): Promise<Response> {
  try {
    if (def.plural === 'priorityclasses') await admitPriorityClassWrite(req, env, def, info, serve)
    return await serve(req, env, def, info)
  } finally {
    forgetClasses(def)
  }
}

async function admitPriorityClassWrite(req: Request, env: Env, def: ResourceDef, info: RequestInfo, serve: Serve): Promise<void> {
  if (req.method === 'DELETE') {
    if (info.name && systemPriorityClasses.some((c) => c.metadata.name === info.name)) {
      throw admissionForbidden(def.group, def.plural, info.name, 'this is a system priority class and cannot be deleted')
    }
    return
  }
  if (!['POST', 'PUT', 'PATCH'].includes(req.method)) return
  const trial = await serve(dryRunTrial(req), env, def, info)
  if (!trial.ok) return
  const pc = (await trial.json()) as KubeObject
  forgetClasses(def)
  const operation = trial.status === 201 ? 'create' : 'update'
  const why = globalDefaultRefusal(pc, await classSnapshot(env, def), operation)
  if (why) throw admissionForbidden(def.group, def.plural, pc.metadata.name ?? '', why)
}
