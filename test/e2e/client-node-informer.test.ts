import {
  CoreV1Api,
  KubeConfig,
  Watch,
  makeInformer,
  type Informer,
  type ObjectCache,
  type V1ConfigMap,
} from '@kubernetes/client-node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type TestServer } from './helpers/server'
import { waitFor } from './helpers/wait'

// An informer from the official JavaScript client: its own list/watch loop, HTTP stack (node-fetch)
// and TLS setup, none of which share code with kubectl.

const NS = 'informer-e2e'
const EVENT_TIMEOUT_MS = 20_000
const RESTART_RECONNECT_TIMEOUT_MS = 30_000
// client-node does not retry a watch that fails; its docs have the user restart it after a pause.
const RESTART_DELAY_MS = 500

type Verb = 'add' | 'update' | 'delete'

interface Seen {
  verb: Verb
  name: string
  resourceVersion: string
  data: Record<string, string> | undefined
}

describe('@kubernetes/client-node informer', () => {
  let server: TestServer
  let kc: KubeConfig
  let core: CoreV1Api
  let informer: (Informer<V1ConfigMap> & ObjectCache<V1ConfigMap>) | undefined
  let stopping = false
  let retry: NodeJS.Timeout | undefined
  const seen: Seen[] = []
  const informerErrors: string[] = []
  const warnings: string[] = []
  let connects = 0

  beforeAll(async () => {
    server = await startServer()
    kc = new KubeConfig()
    kc.loadFromFile(server.kubeconfig)
    core = kc.makeApiClient(CoreV1Api)
  })

  afterAll(async () => {
    stopping = true
    clearTimeout(retry)
    await informer?.stop()
    await server?.dispose()
  })

  /** Keeps any Warning header a response carried: a typed client sending valid objects should get none. */
  function noteWarning(op: string, headers: Record<string, string>): void {
    if (headers.warning !== undefined) warnings.push(`${op}: ${headers.warning}`)
  }

  async function create(name: string, data: Record<string, string>): Promise<V1ConfigMap> {
    const res = await core.createNamespacedConfigMapWithHttpInfo({
      namespace: NS,
      body: { metadata: { name }, data },
    })
    noteWarning(`create ${name}`, res.headers)
    expect(res.httpStatusCode).toBe(201)
    return res.data
  }

  /**
   * Reads the object and writes it back with new data, as a controller's get-modify-update does, so
   * the server's own output (managedFields, timestamps, resourceVersion) goes back in. The informer's
   * cached copy is not used: client-node keeps watch events as raw JSON, which its serializer cannot
   * send (it expects Date objects for timestamps).
   */
  async function update(name: string, data: Record<string, string>): Promise<V1ConfigMap> {
    const current = await core.readNamespacedConfigMapWithHttpInfo({ name, namespace: NS })
    noteWarning(`read ${name}`, current.headers)
    const res = await core.replaceNamespacedConfigMapWithHttpInfo({
      name,
      namespace: NS,
      body: { ...current.data, data },
    })
    noteWarning(`replace ${name}`, res.headers)
    expect(res.httpStatusCode).toBe(200)
    expect(res.data.metadata?.resourceVersion).not.toBe(current.data.metadata?.resourceVersion)
    return res.data
  }

  async function remove(name: string): Promise<void> {
    const res = await core.deleteNamespacedConfigMapWithHttpInfo({ name, namespace: NS })
    noteWarning(`delete ${name}`, res.headers)
    expect(res.httpStatusCode).toBe(200)
  }

  async function serverList(): Promise<V1ConfigMap[]> {
    const res = await core.listNamespacedConfigMapWithHttpInfo({ namespace: NS })
    noteWarning('list', res.headers)
    return res.data.items
  }

  function waitForEvent(
    verb: Verb,
    name: string,
    want: (s: Seen) => boolean = () => true,
    after = 0,
  ): Promise<Seen> {
    return explained(
      waitFor(() => seen.slice(after).find((s) => s.verb === verb && s.name === name && want(s)), {
        what: `the informer to report '${verb}' for ${NS}/${name}`,
        timeoutMs: EVENT_TIMEOUT_MS,
      }),
    )
  }

  /** A failed wait also says what the informer did meanwhile, as of the failure. */
  function explained<T>(wait: Promise<T>): Promise<T> {
    return wait.catch((err: Error) => {
      throw new Error(
        `${err.message}\ninformer events: ${describeSeen()}\ninformer errors: ${informerErrors.join(' | ') || 'none'}`,
      )
    })
  }

  function describeSeen(): string {
    return seen.map((s) => `${s.verb} ${s.name}@${s.resourceVersion}`).join(', ') || 'none'
  }

  /** name, resourceVersion and data of each object, in name order: what a cache must agree on. */
  function summary(items: readonly V1ConfigMap[]): string[] {
    return items
      .map(
        (cm) =>
          `${cm.metadata?.name}@${cm.metadata?.resourceVersion} ${JSON.stringify(cm.data ?? {})}`,
      )
      .sort()
  }

  async function cacheMatchesServer(what: string): Promise<void> {
    let last = { cache: [] as string[], server: [] as string[] }
    await explained(
      waitFor(
        async () => {
          last = { cache: summary(informer!.list(NS)), server: summary(await serverList()) }
          return JSON.stringify(last.cache) === JSON.stringify(last.server)
        },
        {
          what: `${what}: the informer cache to equal the server's list`,
          timeoutMs: EVENT_TIMEOUT_MS,
        },
      ),
    ).catch((err: Error) => {
      throw new Error(
        `${err.message}\ncache:  ${JSON.stringify(last.cache)}\nserver: ${JSON.stringify(last.server)}`,
      )
    })
  }

  it('trusts only the CA in the kubeconfig', async () => {
    const cluster = kc.getCurrentCluster()
    expect(cluster?.server).toBe(server.url)
    expect(cluster?.skipTLSVerify).toBeFalsy()
    expect(Buffer.from(cluster?.caData ?? '', 'base64').toString('utf8')).toBe(server.ca)
    expect(process.env.NODE_TLS_REJECT_UNAUTHORIZED).not.toBe('0')

    const res = await core.createNamespaceWithHttpInfo({ body: { metadata: { name: NS } } })
    noteWarning(`create namespace ${NS}`, res.headers)
    expect(res.httpStatusCode).toBe(201)

    // The same kubeconfig without its CA: both the API client and the watch must refuse the server.
    const untrusted = new KubeConfig()
    untrusted.loadFromOptions({
      clusters: kc.clusters.map((c) => ({ ...c, caData: undefined, caFile: undefined })),
      users: kc.users,
      contexts: kc.contexts,
      currentContext: kc.currentContext,
    })
    const listError = await untrusted
      .makeApiClient(CoreV1Api)
      .listNamespacedConfigMap({ namespace: NS })
      .then(
        () => undefined,
        (err: unknown) => err,
      )
    expect(listError, 'a list without the CA succeeded').toBeDefined()
    expect(tlsReason(listError)).toMatch(/certificate|CERT/)
    const watchError = await new Promise<unknown>((resolve) => {
      void new Watch(untrusted).watch(
        `/api/v1/namespaces/${NS}/configmaps`,
        {},
        () => resolve(new Error('an event arrived without the CA')),
        resolve,
      )
    })
    expect(tlsReason(watchError)).toMatch(/certificate|CERT/)
  })

  it('reports add for existing and new objects, update with the new data, and delete', async () => {
    await create('before-1', { n: '1' })
    await create('before-2', { n: '2' })

    informer = makeInformer<V1ConfigMap>(kc, `/api/v1/namespaces/${NS}/configmaps`, () =>
      core.listNamespacedConfigMap({ namespace: NS }),
    ) as Informer<V1ConfigMap> & ObjectCache<V1ConfigMap>
    for (const verb of ['add', 'update', 'delete'] as const) {
      // Every namespace also holds the cluster's kube-root-ca.crt, published on its own schedule: only the test's own objects are followed.
      informer.on(
        verb,
        (cm) =>
          cm.metadata?.name !== 'kube-root-ca.crt' &&
          seen.push({
            verb,
            name: cm.metadata?.name ?? '',
            resourceVersion: cm.metadata?.resourceVersion ?? '',
            data: cm.data,
          }),
      )
    }
    informer.on('connect', () => connects++)
    informer.on('error', (err) => {
      if (stopping) return
      informerErrors.push(tlsReason(err))
      scheduleRestart()
    })
    await startInformer()

    await waitForEvent('add', 'before-1')
    await waitForEvent('add', 'before-2')

    const created = await create('after-1', { n: '3' })
    const added = await waitForEvent('add', 'after-1')
    expect(added.resourceVersion).toBe(created.metadata?.resourceVersion)
    expect(added.data).toEqual({ n: '3' })

    const replaced = await update('before-1', { n: '1', changed: 'yes' })
    const updated = await waitForEvent(
      'update',
      'before-1',
      (s) => s.resourceVersion === replaced.metadata?.resourceVersion,
    )
    expect(updated.data).toEqual({ n: '1', changed: 'yes' })
    expect(informer.get('before-1', NS)?.data).toEqual({ n: '1', changed: 'yes' })

    await remove('before-2')
    await waitForEvent('delete', 'before-2')
    expect(informer.get('before-2', NS)).toBeUndefined()

    await cacheMatchesServer('before the restart')
    expect(
      seen
        .filter((s) => s.verb === 'add')
        .map((s) => s.name)
        .sort(),
    ).toEqual(['after-1', 'before-1', 'before-2'])
    expect(warnings).toEqual([])
  })

  it('resumes after a server restart and keeps its cache equal to the server', async () => {
    const connectsBefore = connects
    const mark = seen.length
    await server.restart()

    // Changes made at once, before the informer has necessarily reconnected, must reach it too.
    const replaced = await update('after-1', { n: '3', restarted: 'yes' })
    const created = await create('after-restart', { n: '4' })
    await remove('before-1')

    await explained(
      waitFor(() => connects > connectsBefore, {
        what: 'the informer to notice the restart and connect again',
        timeoutMs: RESTART_RECONNECT_TIMEOUT_MS,
      }),
    )
    const updated = await waitForEvent(
      'update',
      'after-1',
      (s) => s.resourceVersion === replaced.metadata?.resourceVersion,
      mark,
    )
    expect(updated.data).toEqual({ n: '3', restarted: 'yes' })
    const added = await waitForEvent('add', 'after-restart', () => true, mark)
    expect(added.resourceVersion).toBe(created.metadata?.resourceVersion)
    await waitForEvent('delete', 'before-1', () => true, mark)
    await cacheMatchesServer('after the restart')

    // And changes made once the new watch is established, live rather than replayed.
    const late = await create('late', { n: '5' })
    const lateAdded = await waitForEvent('add', 'late', () => true, mark)
    expect(lateAdded.resourceVersion).toBe(late.metadata?.resourceVersion)
    await cacheMatchesServer('after a live change following the restart')
    // Resuming from its last resourceVersion, the informer sees each change once and nothing else.
    expect(seen.slice(mark).map((s) => `${s.verb} ${s.name}`)).toEqual([
      'update after-1',
      'add after-restart',
      'delete before-1',
      'add late',
    ])
    expect(warnings).toEqual([])
  })

  async function startInformer(): Promise<void> {
    try {
      await informer!.start()
    } catch (err) {
      if (stopping) return
      informerErrors.push(tlsReason(err))
      scheduleRestart()
    }
  }

  function scheduleRestart(): void {
    if (stopping || retry) return
    retry = setTimeout(() => {
      retry = undefined
      if (!stopping) void startInformer()
    }, RESTART_DELAY_MS)
  }
})

/** The message and code of a failed request (node-fetch's FetchError carries the TLS code). */
function tlsReason(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as Error & { code?: string }).code
    return code ? `${err.message} (${code})` : err.message
  }
  return String(err)
}
