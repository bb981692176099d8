import { queryFlag } from '../http/query'
import type { ApiBindings } from '../bindings'
import type { KubeObject } from '../../apimachinery/types'
import { ApiError, failure, notFound } from '../../apimachinery/status'
import { storedResources } from '../../apis/registry'
import type { ResourceDef } from '../../apis/resource-def'
import { storeFor } from '../../store-client/stores'
import { controllerNames } from '../../controllers/registry'
import { hostFor } from '../../controllers/hosts'
import { buildTable } from '../../printers/table'
import { componentStatusPrinter } from '../../printers/component-status'
import { includeObjectOf, wantsTable } from '../http/table-negotiation'
import { jsonBody } from '../http/respond'

/** As kube-apiserver: every answer carries the deprecation warning kubectl prints. */
const deprecated = ['v1 ComponentStatus is deprecated in v1.19+']

/** How long a component may take to answer its probe before it counts as unhealthy. */
const probeTimeoutMs = 5_000

/**
 * The components of this control plane: a store per built-in resource (`store-<resource>[.<group>]`)
 * and a host per controller (`controller-<name>`). There is no etcd and no separate scheduler or
 * controller-manager process to report.
 */
interface Component {
  name: string
  probe: (env: ApiBindings) => Promise<unknown>
}

const storeComponent = (def: ResourceDef): Component => ({
  name: `store-${def.plural}${def.group ? `.${def.group}` : ''}`,
  probe: (env) => storeFor(env, def).revision(),
})

function components(): Component[] {
  return [
    ...storedResources.map(storeComponent),
    ...controllerNames().map((name) => ({
      name: `controller-${name}`,
      probe: (env: ApiBindings) => hostFor(env, name).readCounters(name),
    })),
  ]
}

/** One component's health: Healthy when its Durable Object answers a read in time. */
async function statusOf(env: ApiBindings, c: Component): Promise<KubeObject> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${probeTimeoutMs / 1000}s`)),
      probeTimeoutMs,
    )
  })
  let condition: Record<string, string>
  try {
    await Promise.race([c.probe(env), timeout])
    condition = { type: 'Healthy', status: 'True', message: 'ok' }
  } catch (e) {
    condition = {
      type: 'Healthy',
      status: 'False',
      error: e instanceof Error ? e.message : String(e),
    }
  } finally {
    if (timer !== undefined) clearTimeout(timer)
  }
  return {
    kind: 'ComponentStatus',
    apiVersion: 'v1',
    metadata: { name: c.name },
    conditions: [condition],
  }
}

/** GET /api/v1/componentstatuses[/{name}]: list and get only, as upstream serves the kind. */
export async function serveComponentStatuses(
  req: Request,
  env: ApiBindings,
  name?: string,
): Promise<Response> {
  if (req.method !== 'GET')
    throw new ApiError(
      failure(
        405,
        'MethodNotAllowed',
        'the server does not allow this method on the requested resource',
      ),
    )
  const q = new URL(req.url).searchParams
  if (queryFlag(q, 'watch'))
    throw new ApiError(
      failure(
        405,
        'MethodNotAllowed',
        'the server does not allow this method on the requested resource',
      ),
    )
  const all = components()
  const chosen = name === undefined ? all : all.filter((c) => c.name === name)
  if (name !== undefined && !chosen.length)
    throw new ApiError(notFound('', 'componentstatuses', name))
  const items = await Promise.all(chosen.map((c) => statusOf(env, c)))
  if (wantsTable(req.headers.get('Accept'))) {
    return jsonBody(
      buildTable(items, {
        group: '',
        resource: 'componentstatuses',
        printer: componentStatusPrinter,
        includeObject: includeObjectOf(q),
        now: Date.now(),
      }),
      200,
      deprecated,
    )
  }
  if (name !== undefined) return jsonBody(items[0], 200, deprecated)
  return jsonBody(
    { kind: 'ComponentStatusList', apiVersion: 'v1', metadata: {}, items },
    200,
    deprecated,
  )
}
