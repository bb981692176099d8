import type { ApiBindings } from '../bindings'
import { storeName, storedResources } from '../../apis/registry'
import { storeFor } from '../../store-client/stores'
import { controllersOfHost, hostFor, hostNamesAll } from '../../controllers/hosts'
import { renderObjectUsage, type ObjectUsage } from '../../limits/object-usage'

type UsageRead = [labels: string, read: () => Promise<ObjectUsage | null>]

/**
 * What each store of a built-in kind and each controller host was billed for (strict-limits mode),
 * as Prometheus text with the Worker's requests; an object that does not answer is left out. The
 * reads themselves are not counted, nor is the GET /metrics that makes them.
 */
export async function objectUsageMetrics(env: ApiBindings): Promise<string> {
  const objects: UsageRead[] = [
    ...storedResources.map(
      (def): UsageRead => [
        `class="KindStore",object="${storeName(def)}"`,
        async () => storeFor(env, def).readUsage(),
      ],
    ),
    ...hostNamesAll().map(
      (host): UsageRead => [
        `class="ControllerHost",object="${host}"`,
        async () => hostFor(env, controllersOfHost(host)[0]!).readUsage(),
      ],
    ),
  ]
  const read = await Promise.allSettled(objects.map(([, read]) => read()))
  const series: [string, ObjectUsage][] = []
  read.forEach((r, i) => {
    if (r.status === 'fulfilled' && r.value) series.push([objects[i]![0], r.value])
    else if (r.status === 'rejected')
      console.error(`metrics: ${objects[i]![0]} did not answer`, r.reason)
  })
  return renderObjectUsage(series)
}
