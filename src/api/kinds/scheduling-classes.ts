import { servePriorityClassWrite, serveRuntimeClassWrite } from '../priority-class-writes'
import type { KindApi } from './types'

/** PriorityClass writes pass the Priority plugin's checks (../priority-class-writes). */
export const priorityClassesApi: KindApi = { write: servePriorityClassWrite }

export const runtimeClassesApi: KindApi = {
  write: (req, _env, def, _info, serve) => serveRuntimeClassWrite(req, def, serve),
}
