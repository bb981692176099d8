import type { KindStore } from '../durable-objects/kind-store/kind-store'
import type { ControllerHost } from '../durable-objects/controller-host/controller-host'
import type { NodeGateway } from '../durable-objects/node-gateway/node-gateway'
import type { ApiBindings } from './api/bindings'

/**
 * The Worker's bindings, as declared in wrangler.toml: each Durable Object namespace with the class
 * that serves it. Only the Worker entry (src/index.ts, the composition root) and the tests name it;
 * every other module names the bindings of its own layer, and this satisfies every layer's (the
 * HTTP layer's are the union of those below it).
 */
export interface Env extends ApiBindings {
  KIND_STORE: DurableObjectNamespace<KindStore>
  CONTROLLER_HOST: DurableObjectNamespace<ControllerHost>
  /** One per node (`node/<name>`): where the node agent's tunnel ends. */
  NODE_GATEWAY: DurableObjectNamespace<NodeGateway>
}
