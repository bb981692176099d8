import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { kubectl, kubectlJson } from './helpers/kubectl'
import { startServer, type TestServer } from './helpers/server'
import { stream } from './helpers/manifests'
import { waitFor } from './helpers/wait'

let server: TestServer
const run = (args: string[], stdin?: string) =>
  kubectl(args, { kubeconfig: server.kubeconfig, stdin })
const json = (args: string[]) => kubectlJson(args, { kubeconfig: server.kubeconfig })

beforeAll(async () => {
  server = await startServer()
  expect((await run(['create', 'namespace', 'refused'])).code).toBe(0)
  expect(
    (await run(['create', 'quota', 'q', '-n', 'refused', '--hard=pods=0,count/replicasets.apps=0']))
      .code,
  ).toBe(0)
  await waitFor(
    async () =>
      (await json(['get', 'quota', 'q', '-n', 'refused', '-o', 'json'])).status?.used?.pods === '0',
    { what: 'the quota observed', timeoutMs: 30_000 },
  )
})

afterAll(async () => {
  await server?.dispose()
})

/** `kubectl describe` of the object once its output contains `text`. */
const describedWith = (kind: string, name: string, text: string) =>
  waitFor(
    async () => {
      const out = await run(['describe', kind, name, '-n', 'refused'])
      return out.stdout.includes(text) ? out.stdout : false
    },
    { what: `${text} in kubectl describe ${kind} ${name}`, timeoutMs: 40_000 },
  )

const pods = (used = 0) =>
  `exceeded quota: q, requested: pods=1, used: pods=${used}, limited: pods=${used}`

describe("a workload controller's refused create is reported with the API's error", () => {
  it('StatefulSet: create Pod <pod> in StatefulSet <set> failed error: …', async () => {
    const set = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db', namespace: 'refused' },
      spec: {
        replicas: 1,
        serviceName: 'db',
        selector: { matchLabels: { app: 'db' } },
        template: {
          metadata: { labels: { app: 'db' } },
          spec: { containers: [{ name: 'main', image: 'busybox' }] },
        },
      },
    }
    expect((await run(['apply', '-f', '-'], stream(set))).code).toBe(0)
    const out = await describedWith('statefulset', 'db', 'failed error:')
    expect(out).toMatch(
      new RegExp(
        `Warning\\s+FailedCreate\\s+.*statefulset-controller\\s+create Pod db-0 in StatefulSet db failed error: pods "db-0" is forbidden: ${pods()}`,
      ),
    )
  })

  it('Job: Error creating: …', async () => {
    expect((await run(['create', 'job', 'pi', '-n', 'refused', '--image=busybox'])).code).toBe(0)
    const out = await describedWith('job', 'pi', 'Error creating:')
    expect(out).toMatch(
      new RegExp(
        `Warning\\s+FailedCreate\\s+.*job-controller\\s+Error creating: pods "pi-[a-z0-9]{5}" is forbidden: ${pods()}`,
      ),
    )
  })

  it('Deployment: ReplicaSetCreateError, and Progressing=False with the same message', async () => {
    expect(
      (await run(['create', 'deployment', 'web', '-n', 'refused', '--image=busybox'])).code,
    ).toBe(0)
    const out = await describedWith('deployment', 'web', 'ReplicaSetCreateError')
    const rsQuota =
      'exceeded quota: q, requested: count/replicasets.apps=1, used: count/replicasets.apps=0, limited: count/replicasets.apps=0'
    expect(out).toMatch(
      new RegExp(
        `Warning\\s+ReplicaSetCreateError\\s+.*deployment-controller\\s+Failed to create new replica set "web-[a-z0-9]+": replicasets.apps "web-[a-z0-9]+" is forbidden: ${rsQuota}`,
      ),
    )
    const d = await waitFor(
      async () => {
        const got = await json(['get', 'deployment', 'web', '-n', 'refused', '-o', 'json'])
        return got.status?.conditions?.find(
          (c: any) => c.type === 'Progressing' && c.reason === 'ReplicaSetCreateError',
        )
          ? got
          : false
      },
      { what: 'Progressing=False ReplicaSetCreateError', timeoutMs: 30_000 },
    )
    const progressing = d.status.conditions.find((c: any) => c.type === 'Progressing')
    expect(progressing.status).toBe('False')
    expect(progressing.message).toMatch(
      new RegExp(
        `^Failed to create new replica set "web-[a-z0-9]+": replicasets.apps "web-[a-z0-9]+" is forbidden: ${rsQuota}$`,
      ),
    )
    expect((await json(['get', 'rs', '-n', 'refused', '-o', 'json'])).items).toHaveLength(0)
  })
})
