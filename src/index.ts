import type { Env } from './env'
import { buildApp } from './api/app'
import { hostFor, resyncControllers } from './controllers/hosts'
import { deadlineWatchersOf, watchersOf } from './controllers/registry'
import { isIngressRequest, serveIngress } from './edge/serve-ingress'
import { KindStore as Store } from '../durable-objects/kind-store/kind-store'
import { storeKinds } from './apis/store-strategy'
import { InvocationMeter, metered, workerFigures } from './limits/strict'
import { settingsOf } from './settings/settings'
import { provideAdmissionAuthorizer } from './admission/policies/authorizer'
import { authorize } from './api/authorization/authorize'
import { rbacPolicy } from './api/authorization/rbac-snapshot'

/** The store of one kind, whose changes are routed to the controllers that watch it, writing as the kind's strategy says. */
export class KindStore extends Store {
  constructor(ctx: DurableObjectState, env: Env) {
    super(
      ctx,
      env,
      {
        watchersOf,
        poke: (name) => hostFor(env, name).poke(name),
        deadlineWatchersOf,
        pokeDue: (name, store, objects) => hostFor(env, name).pokeDue(name, store, objects),
      },
      storeKinds({
        serviceClusterIpRange: settingsOf(env).serviceClusterIpRange,
        nodeMonitorGracePeriodMs: settingsOf(env).nodeMonitorGracePeriodMs,
      }),
    )
  }
}
export { ControllerHost } from '../durable-objects/controller-host/controller-host'
export { NodeGateway } from '../durable-objects/node-gateway/node-gateway'

const app = buildApp()

// CEL's `authorizer` in admission asks the cluster's authorizer over its current RBAC policy.
provideAdmissionAuthorizer(async (env) => {
  const policy = await rbacPolicy(env)
  return (user, attributes) => authorize(user, attributes, policy)
})

export default {
  /** Ingress traffic (see isIngressRequest) is served at the edge; everything else is the API. */
  fetch(req, env, ctx) {
    const serve = () =>
      isIngressRequest(req, env) ? serveIngress(req, env) : app.fetch(req, env, ctx)
    return settingsOf(env).strictLimits
      ? metered(new InvocationMeter('worker', workerFigures), serve)
      : serve()
  },
  /** Cron: the safety net that re-arms every controller whose alarm was lost. */
  async scheduled(_controller, env): Promise<void> {
    await resyncControllers(env)
  },
} satisfies ExportedHandler<Env>
