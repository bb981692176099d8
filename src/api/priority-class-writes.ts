/**
 * Writes to PriorityClasses and RuntimeClasses. A PriorityClass create, update, patch or apply
 * stores only an object that passes the Priority plugin's check (one global default at most),
 * judged on the exact object stored (../admission/guarded-write); the built-in system classes
 * cannot be deleted. Any write drops this isolate's snapshot of the kind, which pod admission reads.
 */
import type { Env } from '../env'
import type { ResourceDef } from '../apis/registry'
import { globalDefaultRefusal, systemPriorityClasses } from '../apis/priority-class'
import { admissionForbidden } from '../admission/pod-admission'
import { classSnapshot, forgetClasses } from '../admission/class-snapshot'
import type { WriteGuard } from '../admission/guarded-write'
import type { RequestInfo } from './request-info'

type Serve = (req: Request, env: Env, def: ResourceDef, info: RequestInfo, guard?: WriteGuard) => Promise<Response>

export const isSchedulingClass = (def: ResourceDef): boolean =>
  (def.group === 'scheduling.k8s.io' && def.plural === 'priorityclasses') || (def.group === 'node.k8s.io' && def.plural === 'runtimeclasses')

export async function serveClassWrite(req: Request, env: Env, def: ResourceDef, info: RequestInfo, serve: Serve): Promise<Response> {
  try {
    if (def.plural !== 'priorityclasses') return await serve(req, env, def, info)
    if (req.method === 'DELETE' && info.name && systemPriorityClasses.some((c) => c.metadata.name === info.name)) {
      throw admissionForbidden(def.group, def.plural, info.name, 'this is a system priority class and cannot be deleted')
    }
    return await serve(req, env, def, info, globalDefaultGuard(env, def))
  } finally {
    forgetClasses(def)
  }
}

/** The Priority plugin's check on the PriorityClass a write stores, against the classes stored now. */
export function globalDefaultGuard(env: Env, def: ResourceDef): WriteGuard {
  return async (pc, old) => {
    forgetClasses(def)
    const why = globalDefaultRefusal(pc, await classSnapshot(env, def), old ? 'update' : 'create')
    return why ? admissionForbidden(def.group, def.plural, pc.metadata.name ?? '', why).status : undefined
  }
}
