import type { Env } from './env'
import { buildApp } from './api/app'
import { hostFor, resyncControllers } from './controllers/hosts'
import { deadlineWatchersOf, watchersOf } from './controllers/registry'
import { isIngressRequest, serveIngress } from './edge/serve-ingress'
import { KindStore as Store } from '../durable-objects/kind-store/kind-store'
import { storeKinds } from './apis/store-strategy'
import { InvocationMeter, metered, workerFigures } from './limits/strict'
import { settingsOf } from './settings/settings'
import { countWorkerRequest } from './limits/object-usage'
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

let started: Promise<void> | undefined

/**
 * Once per isolate, makes sure every controller host has an alarm: a host keeps one set from its
 * first pass on (at the latest its safety resync), so this starts the hosts of a new cluster, or of
 * controllers a deploy added, and finds every other host armed. With CONTROLLER_NOTIFICATIONS=false
 * the hosts start only when something arms them: a cron trigger, if one is configured, or a test.
 */
function startControllers(env: Env): Promise<void> {
  started ??= resyncControllers(env).catch((e) => {
    started = undefined
    console.error('starting the controller hosts failed', e)
  })
  return started
}

// CEL's `authorizer` in admission asks the cluster's authorizer over its current RBAC policy.
provideAdmissionAuthorizer(async (env) => {
  const policy = await rbacPolicy(env)
  return (user, attributes) => authorize(user, attributes, policy)
})

export default {
  /** Ingress traffic (see isIngressRequest) is served at the edge; everything else is the API. */
  fetch(req, env, ctx) {
    if (settingsOf(env).controllerNotifications) ctx.waitUntil(startControllers(env))
    const serve = () =>
      isIngressRequest(req, env) ? serveIngress(req, env) : app.fetch(req, env, ctx)
    if (!settingsOf(env).strictLimits) return serve()
    countWorkerRequest('fetch', req)
    return metered(new InvocationMeter('worker', workerFigures), serve)
  },
  /**
   * A cron trigger, if one is configured (wrangler.toml configures none, so an idle cluster wakes
   * nothing): re-arms every controller host whose alarm was lost.
   */
  async scheduled(_controller, env): Promise<void> {
    if (settingsOf(env).strictLimits) countWorkerRequest('scheduled')
    await resyncControllers(env)
  },
} satisfies ExportedHandler<Env>
