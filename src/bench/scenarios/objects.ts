// The objects the workload scenarios create through the API, and the waits on them.
import { PodTracker, type PodView } from '../cluster'
import type { ControlPlane } from '../control-plane'
import type { HttpClient } from '../http-client'
import { errorText } from '../progress'
import { sleep } from '../wait'
import { expectStatus } from './series'

export async function createNamespace(client: HttpClient, name: string): Promise<void> {
  await create(
    client,
    '/api/v1/namespaces',
    JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }),
  )
}

const CONTAINERS = [{ name: 'main', image: 'busybox' }]

/** POST that survives a dropped keep-alive connection: resent once, and 409 then means the first one landed. */
export async function create(client: HttpClient, path: string, body: string): Promise<void> {
  try {
    await client.expectOk('POST', path, body)
  } catch (err) {
    if (/ answered \d+/.test(errorText(err))) throw err
    expectStatus(await client.request('POST', path, body), 201, 409)
  }
}

export function podJson(name: string, namespace: string): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace },
    spec: { containers: CONTAINERS },
  })
}

export function deploymentJson(
  name: string,
  namespace: string,
  replicas: number,
  podSpec: Record<string, unknown> = {},
): string {
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: CONTAINERS, ...podSpec },
      },
    },
  })
}

/** Bound, Running and not being deleted. */
export const running = (p: PodView) =>
  !p.deleting && p.nodeName !== undefined && p.phase === 'Running'

/** Polls the Deployment until its status reports every replica available for its current generation. */
export async function waitForAvailable(
  client: HttpClient,
  ns: string,
  name: string,
  replicas: number,
  deadline: number,
): Promise<void> {
  let last = 'no answer'
  for (;;) {
    try {
      const res = await client.expectOk('GET', `/apis/apps/v1/namespaces/${ns}/deployments/${name}`)
      const d = JSON.parse(res.body) as {
        metadata: { generation?: number }
        status?: { observedGeneration?: number; availableReplicas?: number }
      }
      if (
        (d.status?.observedGeneration ?? 0) >= (d.metadata.generation ?? 1) &&
        d.status?.availableReplicas === replicas
      )
        return
      last = `availableReplicas ${d.status?.availableReplicas ?? 0} of ${replicas}`
    } catch (err) {
      // A keep-alive connection the loaded server dropped is no answer about the Deployment: poll again.
      last = errorText(err)
    }
    if (performance.now() > deadline) throw new Error(`deployment ${name}: ${last} at the deadline`)
    await sleep(200)
  }
}

/**
 * Creates a namespace and a Deployment of `replicas` in it, then waits until every replica is
 * Running and the Deployment's status says they are available; both times count from the create.
 */
export async function convergeDeployment(
  cp: ControlPlane,
  client: HttpClient,
  ns: string,
  name: string,
  replicas: number,
  waitMs: number,
): Promise<{ runningMs: number; availableMs: number }> {
  await createNamespace(client, ns)
  const pods = await PodTracker.start(client, cp, ns)
  try {
    const t0 = performance.now()
    await create(
      client,
      `/apis/apps/v1/namespaces/${ns}/deployments`,
      deploymentJson(name, ns, replicas),
    )
    await pods.until(
      `${replicas} pods Running`,
      () => pods.live().filter(running).length >= replicas,
      waitMs,
    )
    const runningMs = performance.now() - t0
    await waitForAvailable(client, ns, name, replicas, t0 + waitMs)
    return { runningMs, availableMs: performance.now() - t0 }
  } finally {
    pods.close()
  }
}
