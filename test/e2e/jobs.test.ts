import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { kubectl, kubectlJson, type KubectlResult } from './helpers/kubectl'
import { stream, type Manifest } from './helpers/manifests'
import { startNodeAgent, type AgentProcess } from './helpers/node-agent'
import { startServer, type TestServer } from './helpers/server'
import { waitFor } from './helpers/wait'

// Jobs run to completion on a process-runtime node; a CronJob starts one at the next minute.

const NODE = 'e2e-jobs-node'
let server: TestServer
let agent: AgentProcess

const run = (args: string[], stdin?: string): Promise<KubectlResult> =>
  kubectl(args, { kubeconfig: server.kubeconfig, stdin })

function podTemplate(script: string): Manifest {
  return {
    spec: {
      restartPolicy: 'Never',
      containers: [{ name: 'main', image: 'busybox:1.36', command: ['sh', '-c', script] }],
    },
  }
}

function job(name: string, script: string, spec: Record<string, unknown> = {}): Manifest {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name },
    spec: { ...spec, template: podTemplate(script) },
  }
}

const cronJob: Manifest = {
  apiVersion: 'batch/v1',
  kind: 'CronJob',
  metadata: { name: 'tick' },
  spec: { schedule: '*/1 * * * *', jobTemplate: { spec: { template: podTemplate('echo tick') } } },
}

beforeAll(async () => {
  server = await startServer()
  agent = startNodeAgent(server.kubeconfig, NODE)
  await waitFor(
    async () => {
      const res = await run([
        'get',
        'node',
        NODE,
        '-o',
        'jsonpath={.status.conditions[?(@.type=="Ready")].status}',
      ])
      return res.stdout.trim() === 'True'
    },
    { what: `node ${NODE} Ready`, timeoutMs: 30_000 },
  )
  // Created first, so the wait for its next minute overlaps the Job tests.
  expect((await run(['apply', '-f', '-'], stream(cronJob))).code).toBe(0)
})

afterAll(async () => {
  await agent?.stop()
  await server?.dispose()
})

describe('jobs', () => {
  it('runs completions 3 with parallelism 2 to Complete, and kubectl logs job/x prints its output', async () => {
    expect(
      (
        await run(
          ['apply', '-f', '-'],
          stream(job('three', 'echo done $HOSTNAME', { completions: 3, parallelism: 2 })),
        )
      ).code,
    ).toBe(0)
    const waited = await run(['wait', '--for=condition=complete', 'job/three', '--timeout=60s'])
    expect(waited.stdout + waited.stderr).toContain('job.batch/three condition met')
    const j = await kubectlJson(['get', 'job', 'three', '-o', 'json'], {
      kubeconfig: server.kubeconfig,
    })
    expect(j.status.succeeded).toBe(3)
    expect(j.status.active ?? 0).toBe(0)
    expect(j.status.completionTime).toBeDefined()
    const pods = await kubectlJson(
      ['get', 'pods', '-l', 'batch.kubernetes.io/job-name=three', '-o', 'json'],
      { kubeconfig: server.kubeconfig },
    )
    expect(pods.items).toHaveLength(3)
    const logs = await run(['logs', 'job/three'])
    expect(logs.code).toBe(0)
    expect(logs.stdout).toMatch(/^done three-\w+/m)
    const table = await run(['get', 'job', 'three'])
    expect(table.stdout).toMatch(/three\s+Complete\s+3\/3/)
  })

  it('marks a Job whose pods keep failing Failed once past backoffLimit', async () => {
    expect(
      (await run(['apply', '-f', '-'], stream(job('broken', 'exit 1', { backoffLimit: 1 })))).code,
    ).toBe(0)
    const waited = await run(['wait', '--for=condition=failed', 'job/broken', '--timeout=60s'])
    expect(waited.stdout + waited.stderr).toContain('job.batch/broken condition met')
    const j = await kubectlJson(['get', 'job', 'broken', '-o', 'json'], {
      kubeconfig: server.kubeconfig,
    })
    expect(j.status.failed).toBe(2)
    expect(j.status.conditions.find((c: any) => c.type === 'Failed').reason).toBe(
      'BackoffLimitExceeded',
    )
    const events = await run([
      'get',
      'events',
      '--field-selector',
      'involvedObject.name=broken',
      '-o',
      'jsonpath={.items[*].reason}',
    ])
    expect(events.stdout).toContain('BackoffLimitExceeded')
  })

  it('creates a Job from a CronJob at the next minute, and kubectl create job --from copies it', async () => {
    const manual = await run(['create', 'job', '--from=cronjob/tick', 'tick-manual'])
    expect(manual.code).toBe(0)
    const scheduled = await waitFor(
      async () => {
        const list = await kubectlJson(['get', 'jobs', '-o', 'json'], {
          kubeconfig: server.kubeconfig,
        })
        return list.items.find((j: any) => /^tick-\d+$/.test(j.metadata.name))
      },
      { what: 'a scheduled Job of tick', timeoutMs: 75_000, intervalMs: 500 },
    )
    const stamp = scheduled.metadata.annotations['batch.kubernetes.io/cronjob-scheduled-timestamp']
    expect(Number(scheduled.metadata.name.slice('tick-'.length))).toBe(Date.parse(stamp) / 60_000)
    expect(scheduled.metadata.ownerReferences[0]).toMatchObject({
      kind: 'CronJob',
      name: 'tick',
      controller: true,
    })
    expect(
      (
        await run([
          'wait',
          '--for=condition=complete',
          `job/${scheduled.metadata.name}`,
          'job/tick-manual',
          '--timeout=60s',
        ])
      ).code,
    ).toBe(0)
    const cj = await waitFor(
      async () => {
        const c = await kubectlJson(['get', 'cronjob', 'tick', '-o', 'json'], {
          kubeconfig: server.kubeconfig,
        })
        return c.status.lastSuccessfulTime && c
      },
      { what: 'tick lastSuccessfulTime', timeoutMs: 20_000 },
    )
    expect(cj.status.lastScheduleTime).toBe(stamp)
  })
})
