/**
 * Writes to PriorityClasses and RuntimeClasses. A PriorityClass create, update, patch or apply
 * stores only an object that passes the Priority plugin's check (one global default at most),
 * judged on the exact object stored (../admission/guarded-write); the built-in system classes
 * cannot be deleted. Any write drops this isolate's snapshot of the kind, which pod admission reads.
 */
import type { AdmissionBindings } from '../admission/bindings'
import type { ResourceDef } from '../apis/registry'
import { globalDefaultRefusal, systemPriorityClasses } from '../apis/priority-class'
import { admissionForbidden } from '../admission/pod-admission'
import { classSnapshot, forgetClasses } from '../admission/class-snapshot'
import type { WriteGuard } from '../admission/guarded-write'
import type { RequestInfo } from './http/request-info'
import type { ServeWrite } from './kinds/types'

export async function servePriorityClassWrite(req: Request, env: AdmissionBindings, def: ResourceDef, info: RequestInfo, serve: ServeWrite): Promise<Response> {
  try {
    if (req.method === 'DELETE' && info.name && systemPriorityClasses.some((c) => c.metadata.name === info.name)) {
      throw admissionForbidden(def.group, def.plural, info.name, 'this is a system priority class and cannot be deleted')
    }
    return await serve(req, globalDefaultGuard(env, def))
  } finally {
    forgetClasses(def)
  }
}

export async function serveRuntimeClassWrite(req: Request, def: ResourceDef, serve: ServeWrite): Promise<Response> {
  try {
    return await serve(req)
  } finally {
    forgetClasses(def)
  }
}

/** The Priority plugin's check on the PriorityClass a write stores, against the classes stored now. */
export function globalDefaultGuard(env: AdmissionBindings, def: ResourceDef): WriteGuard {
  return async (pc, old) => {
    forgetClasses(def)
    const why = globalDefaultRefusal(pc, await classSnapshot(env, def), old ? 'update' : 'create')
    return why ? admissionForbidden(def.group, def.plural, pc.metadata.name ?? '', why).status : undefined
  }
}
