import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HttpClient } from '../../src/bench/http-client'
import { runLoad } from '../../src/bench/load'
import { configMapJson, objectName } from '../../src/bench/payload'
import { createdNames } from '../../src/bench/scenarios/created-names'
import { frontIdleMs } from '../../src/launcher/https-front'
import { startServer, type TestServer } from './helpers/server'
import { sleep } from './helpers/wait'

// The bench's create series, small: creates with 16 in flight over kept-alive connections to the
// https front, through the bench's own client. Every create gets its answer, and what is stored is
// exactly what the client saw created.
describe('creates under load through the https front', () => {
  let server: TestServer
  let client: HttpClient
  const ns = 'load'
  const path = `/api/v1/namespaces/${ns}/configmaps`

  beforeAll(async () => {
    server = await startServer()
    client = new HttpClient(server.url, {
      ca: server.ca,
      token: server.token,
      connections: 16,
      timeoutMs: 30_000,
    })
    await client.expectOk(
      'POST',
      '/api/v1/namespaces',
      JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }),
    )
  })

  afterAll(async () => {
    client?.close()
    await server?.dispose()
  })

  it('answers each of 2,000 creates, and stores exactly the ones the client saw created', async () => {
    const failures: string[] = []
    const series = (from: number) =>
      runLoad({
        concurrency: 16,
        count: 1_000,
        timeLimitMs: 60_000,
        request: async (i) => {
          const name = objectName('cm', from + i)
          const res = await client
            .request('POST', path, configMapJson(name, ns))
            .catch((err: Error) => ({ status: 0, body: err.message }))
          if (res.status !== 201) failures.push(`${name}: ${res.status} ${res.body.slice(0, 200)}`)
          if (res.status !== 201) throw new Error(res.body)
        },
      })
    const first = await series(0)
    // Longer than the front keeps an idle connection: the second half starts on connections it closed.
    await sleep(frontIdleMs + 500)
    const second = await series(1_000)
    expect(failures).toEqual([])
    expect(first.ok + second.ok).toBe(2_000)

    const names = await createdNames(client, path, 'cm', 2_000)
    expect(names).toHaveLength(2_000)
    expect(new Set(names).size).toBe(2_000)
    // The namespace holds one more ConfigMap, the cluster's own, not one of the series'.
    const listed = (
      JSON.parse((await client.expectOk('GET', path)).body) as {
        items: { metadata: { name: string } }[]
      }
    ).items.map((i) => i.metadata.name)
    expect(listed.filter((n) => !names.includes(n))).toEqual(['kube-root-ca.crt'])
  })
})
