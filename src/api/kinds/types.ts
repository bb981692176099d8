import type { ApiBindings } from '../bindings'
import type { ResourceDef } from '../../apis/resource-def'
import type { WriteGuard } from '../../admission/guarded-write'
import type { RequestInfo } from '../http/request-info'

/**
 * Serves the request as the generic resource handler does, its kind's admission steps passed
 * (../../admission/kind-writes.ts); a write stores only an object `guard` allows too.
 */
export type ServeWrite = (req: Request, guard?: WriteGuard) => Promise<Response>

/**
 * What the API does for one kind beyond the generic resource handler (./resources.ts), as a kind's
 * REST storage adds to the generic one upstream: its own subresources, and what its writes check
 * and forget.
 */
export interface KindApi {
  /**
   * Every write of the kind (any method but GET) goes through here: it may refuse the request,
   * have the object stored checked by a guard, and forget what this isolate cached of the kind.
   */
  write?(
    req: Request,
    env: ApiBindings,
    def: ResourceDef,
    info: RequestInfo,
    serve: ServeWrite,
  ): Promise<Response>
  /** The kind's subresources beyond those its definition lists (status, scale, approval), by name. */
  subresources?: Readonly<Record<string, SubresourceRoute>>
}

/** A subresource served by a handler of its own. */
export interface OwnSubresource {
  serve(
    req: Request,
    env: ApiBindings,
    def: ResourceDef,
    namespace: string | undefined,
    name: string,
  ): Promise<Response>
}

/** A subresource the generic handler serves, for some methods only. */
export interface MethodsSubresource {
  methods: readonly string[]
  /** what any other method is answered */
  otherwise: 'NotFound' | 'MethodNotAllowed'
}

export type SubresourceRoute = OwnSubresource | MethodsSubresource
