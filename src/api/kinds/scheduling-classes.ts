import { forgetClasses } from '../../admission/class-snapshot'
import type { KindApi } from './types'

/** Any write of a PriorityClass or RuntimeClass drops this isolate's snapshot of the kind, which pod admission reads. */
const classesApi: KindApi = {
  async write(req, _env, def, _info, serve) {
    try {
      return await serve(req)
    } finally {
      forgetClasses(def)
    }
  },
}

export const priorityClassesApi = classesApi
export const runtimeClassesApi = classesApi
