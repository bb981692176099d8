import type { HostBindings } from '../controllers/bindings'

/** What the HTTP layer needs: the stores, the node gateways (logs, exec, proxies) and the controller hosts (metrics). */
export type ApiBindings = HostBindings
