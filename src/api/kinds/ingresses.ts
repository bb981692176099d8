import { serveIngressWrite } from '../../edge/ingress-writes'
import type { KindApi } from './types'

/** An Ingress write passes the edge's host ownership (../../edge/ingress-writes). */
export const ingressesApi: KindApi = {
  write: (req, env, def, info, serve) => serveIngressWrite(req, env, def, info.subresource, serve),
}
