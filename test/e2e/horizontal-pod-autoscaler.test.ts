import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { kubectlJson, kubectlOn } from './helpers/kubectl'
import { startServer, type TestServer } from './helpers/server'
import { parseTable } from './helpers/table'
import { waitFor } from './helpers/wait'

let server: TestServer
const { run, ok } = kubectlOn(() => server.kubeconfig)
const json = (args: string[]) => kubectlJson(args, { kubeconfig: server.kubeconfig })
const corpusFile = (path: string) =>
  readFileSync(
    fileURLToPath(new URL(`../fixtures/corpus/kubernetes-website/${path}`, import.meta.url)),
    'utf8',
  )

beforeAll(async () => {
  server = await startServer()
})

afterAll(async () => {
  await server?.dispose()
})

const replicasOf = async (ns: string, name: string) =>
  (await json(['get', 'deployment', name, '-n', ns])).spec.replicas as number
const conditionOf = (hpa: any, type: string) =>
  (hpa.status?.conditions ?? []).find((c: any) => c.type === type)

describe('HorizontalPodAutoscaler with kubectl', () => {
  it('kubectl autoscale keeps a Deployment within its bounds, and says that metrics are not served', async () => {
    await ok(['create', 'namespace', 'hpa'])
    await ok(['create', 'deployment', 'web', '--image=busybox', '-n', 'hpa'])
    expect(await replicasOf('hpa', 'web')).toBe(1)

    const created = await ok(['autoscale', 'deployment', 'web', '--min=3', '--max=5', '-n', 'hpa'])
    expect(created.stdout).toContain('horizontalpodautoscaler.autoscaling/web autoscaled')
    await waitFor(async () => (await replicasOf('hpa', 'web')) === 3, {
      what: 'the deployment scaled to minReplicas',
      timeoutMs: 30_000,
    })

    // At minReplicas the metrics are asked for, and there is no metrics API to answer.
    const hpa = await waitFor(
      async () => {
        const h = await json(['get', 'hpa', 'web', '-n', 'hpa'])
        return conditionOf(h, 'ScalingActive')?.reason === 'FailedGetResourceMetric' && h
      },
      { what: 'the metrics failure reported', timeoutMs: 40_000 },
    )
    expect(hpa.apiVersion).toBe('autoscaling/v2')
    expect(hpa.spec.metrics).toEqual([
      {
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } },
      },
    ])
    expect(hpa.status).toMatchObject({ currentReplicas: 3, desiredReplicas: 3 })
    expect(hpa.status.lastScaleTime).toBeTruthy()
    expect(conditionOf(hpa, 'AbleToScale')).toMatchObject({
      status: 'True',
      reason: 'SucceededGetScale',
    })
    expect(conditionOf(hpa, 'ScalingActive')).toMatchObject({
      status: 'False',
      message: expect.stringContaining('unable to fetch metrics from resource metrics API'),
    })

    const table = parseTable((await ok(['get', 'hpa', '-n', 'hpa'])).stdout)
    expect(table.headers).toEqual([
      'NAME',
      'REFERENCE',
      'TARGETS',
      'MINPODS',
      'MAXPODS',
      'REPLICAS',
      'AGE',
    ])
    expect(table.rows[0]).toMatchObject({
      NAME: 'web',
      REFERENCE: 'Deployment/web',
      TARGETS: 'cpu: <unknown>/80%',
      MINPODS: '3',
      MAXPODS: '5',
      REPLICAS: '3',
    })

    const described = (await ok(['describe', 'hpa', 'web', '-n', 'hpa'])).stdout
    expect(described).toMatch(/Reference:\s+Deployment\/web/)
    expect(described).toMatch(/Min replicas:\s+3/)
    expect(described).toMatch(/AbleToScale\s+True\s+SucceededGetScale/)
    expect(described).toMatch(
      /ScalingActive\s+False\s+FailedGetResourceMetric\s+the HPA was unable to compute the replica count: failed to get cpu utilization/,
    )
    expect(described).toMatch(
      /Normal\s+SuccessfulRescale\s+.*horizontal-pod-autoscaler\s+New size: 3; reason: Current number of replicas below Spec.MinReplicas/,
    )
    expect(described).toMatch(
      /Warning\s+FailedGetResourceMetric\s+.*horizontal-pod-autoscaler\s+failed to get cpu utilization: unable to get metrics for resource cpu/,
    )
    expect(described).toMatch(
      /Warning\s+FailedComputeMetricsReplicas\s+.*invalid metrics \(1 invalid out of 1\)/,
    )

    // Lowering maxReplicas below the current count scales the target down to it.
    await ok([
      'patch',
      'hpa',
      'web',
      '-n',
      'hpa',
      '--type=merge',
      '-p',
      '{"spec":{"minReplicas":1,"maxReplicas":2}}',
    ])
    await waitFor(async () => (await replicasOf('hpa', 'web')) === 2, {
      what: 'the deployment scaled down to maxReplicas',
      timeoutMs: 30_000,
    })
    const events = await json([
      'get',
      'events',
      '-n',
      'hpa',
      '--field-selector',
      'involvedObject.kind=HorizontalPodAutoscaler,reason=SuccessfulRescale',
    ])
    expect(events.items.map((e: any) => e.message)).toContain(
      'New size: 2; reason: Current number of replicas above Spec.MaxReplicas',
    )
  })

  it('serves autoscaling/v1 as a view of the same objects', async () => {
    const v1 = await json(['get', 'horizontalpodautoscalers.v1.autoscaling', 'web', '-n', 'hpa'])
    expect(v1.apiVersion).toBe('autoscaling/v1')
    expect(v1.spec).toEqual({
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      minReplicas: 1,
      maxReplicas: 2,
      targetCPUUtilizationPercentage: 80,
    })
    expect(v1.status).toMatchObject({ currentReplicas: 2, desiredReplicas: 2 })
    expect(
      (await json(['get', 'horizontalpodautoscalers.v1.autoscaling', '-n', 'hpa'])).items.map(
        (h: any) => [h.apiVersion, h.spec.targetCPUUtilizationPercentage],
      ),
    ).toEqual([['autoscaling/v1', 80]])

    // A v1 write changes the CPU target of the stored object; a v2 read sees it.
    await ok([
      'patch',
      'horizontalpodautoscalers.v1.autoscaling',
      'web',
      '-n',
      'hpa',
      '--type=merge',
      '-p',
      '{"spec":{"targetCPUUtilizationPercentage":60}}',
    ])
    const v2 = await json(['get', 'horizontalpodautoscalers.v2.autoscaling', 'web', '-n', 'hpa'])
    expect(v2.spec.metrics).toEqual([
      {
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } },
      },
    ])

    // The documentation's autoscaling/v1 example applies, and applies again with a change.
    await ok(['create', 'namespace', 'hpa-v1'])
    const manifest = corpusFile('controllers/hpa-rs.yaml')
    expect((await ok(['apply', '-n', 'hpa-v1', '-f', '-'], manifest)).stdout).toContain(
      'horizontalpodautoscaler.autoscaling/frontend-scaler created',
    )
    await ok(
      ['apply', '-n', 'hpa-v1', '-f', '-'],
      manifest.replace('maxReplicas: 10', 'maxReplicas: 7'),
    )
    const applied = await json(['get', 'hpa', 'frontend-scaler', '-n', 'hpa-v1'])
    expect(applied.spec).toMatchObject({
      minReplicas: 3,
      maxReplicas: 7,
      metrics: [{ resource: { name: 'cpu', target: { averageUtilization: 50 } } }],
    })
    // Its ReplicaSet does not exist here.
    const missing = await waitFor(
      async () => {
        const h = await json(['get', 'hpa', 'frontend-scaler', '-n', 'hpa-v1'])
        return conditionOf(h, 'AbleToScale')?.reason === 'FailedGetScale' && h
      },
      { what: 'the missing target reported', timeoutMs: 30_000 },
    )
    expect(conditionOf(missing, 'AbleToScale')).toMatchObject({
      status: 'False',
      message: `the HPA controller was unable to get the target's current scale: replicasets.apps "frontend" not found`,
    })
  })

  it('handles unknown fields in an autoscaling/v1 body per fieldValidation', async () => {
    await ok(['create', 'namespace', 'hpa-fields'])
    const body = (name: string) => `apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata: {name: ${name}}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 4
  bogus: 1
`
    const strict = await run(['create', '-n', 'hpa-fields', '-f', '-'], body('strict'))
    expect(strict.code).not.toBe(0)
    expect(strict.stderr).toContain('unknown field "spec.bogus"')
    const warned = await ok(
      ['create', '-n', 'hpa-fields', '--validate=warn', '-f', '-'],
      body('warned'),
    )
    expect(warned.stderr).toContain('Warning: unknown field "spec.bogus"')
    const ignored = await ok(
      ['create', '-n', 'hpa-fields', '--validate=false', '-f', '-'],
      body('ignored'),
    )
    expect(ignored.stderr).not.toContain('unknown field')
    expect(
      (await json(['get', 'hpa', '-n', 'hpa-fields'])).items
        .map((h: any) => h.metadata.name)
        .sort(),
    ).toEqual(['ignored', 'warned'])
  })

  it("applies the documentation's php-apache example and refuses invalid bounds", async () => {
    await ok(['create', 'namespace', 'php'])
    await ok(['apply', '-n', 'php', '-f', '-'], corpusFile('application/php-apache.yaml'))
    const applied = await ok(
      ['apply', '-n', 'php', '-f', '-'],
      corpusFile('application/hpa/php-apache.yaml'),
    )
    expect(applied.stdout).toContain('horizontalpodautoscaler.autoscaling/php-apache created')
    const table = parseTable((await ok(['get', 'hpa', 'php-apache', '-n', 'php'])).stdout)
    expect(table.rows[0]).toMatchObject({
      REFERENCE: 'Deployment/php-apache',
      MINPODS: '1',
      MAXPODS: '10',
    })
    expect(table.rows[0]!.TARGETS).toBe('cpu: <unknown>/50%')
    // The walkthrough's own command, through autoscaling/v1's targetCPUUtilizationPercentage.
    await ok([
      'autoscale',
      'deployment',
      'php-apache',
      '--cpu-percent=40',
      '--min=1',
      '--max=10',
      '--name=php-cli',
      '-n',
      'php',
    ])
    expect(
      parseTable((await ok(['get', 'hpa', 'php-cli', '-n', 'php'])).stdout).rows[0],
    ).toMatchObject({ TARGETS: 'cpu: <unknown>/40%', MINPODS: '1', MAXPODS: '10' })

    const invalid = await run(
      ['apply', '-n', 'php', '-f', '-'],
      corpusFile('application/hpa/php-apache.yaml')
        .replace('minReplicas: 1', 'minReplicas: 0')
        .replace('maxReplicas: 10', 'maxReplicas: -1'),
    )
    expect(invalid.code).not.toBe(0)
    expect(invalid.stderr).toContain(
      'spec.minReplicas: Invalid value: 0: must be greater than or equal to 1',
    )
    expect(invalid.stderr).toContain('spec.maxReplicas: Invalid value: -1: must be greater than 0')
  })
})
