import type { Env } from './env'
import { buildApp } from './api/app'
import { resyncControllers } from './controllers/cron'
import { isIngressRequest, serveIngress } from './edge/serve-ingress'
import { InvocationMeter, metered, strictLimitsOn, workerFigures } from './limits/strict'

export { KindStore } from '../durable-objects/kind-store/kind-store'
export { ControllerHost } from '../durable-objects/controller-host/controller-host'
export { NodeGateway } from '../durable-objects/node-gateway/node-gateway'

const app = buildApp()

export default {
  /** Ingress traffic (see isIngressRequest) is served at the edge; everything else is the API. */
  fetch(req, env, ctx) {
    const serve = () => (isIngressRequest(req, env) ? serveIngress(req, env) : app.fetch(req, env, ctx))
    return strictLimitsOn(env) ? metered(new InvocationMeter('worker', workerFigures), serve) : serve()
  },
  /** Cron: the safety net that re-arms every controller whose alarm was lost. */
  async scheduled(_controller, env): Promise<void> {
    await resyncControllers(env)
  },
} satisfies ExportedHandler<Env>
