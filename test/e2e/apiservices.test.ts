import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { kubectl, kubectlJson } from './helpers/kubectl'
import { startServer, type TestServer } from './helpers/server'
import { stream } from './helpers/manifests'
import { waitFor } from './helpers/wait'

const metricsApiService = readFileSync(
  fileURLToPath(new URL('../fixtures/corpus/metrics-server/apiservice.yaml', import.meta.url)),
  'utf8',
)

let server: TestServer
const run = (args: string[], stdin?: string) =>
  kubectl(args, { kubeconfig: server.kubeconfig, stdin })
const json = (args: string[]) => kubectlJson(args, { kubeconfig: server.kubeconfig })

/** The row of `kubectl get apiservices <name>` once its AVAILABLE column matches. */
const availableAs = (name: string, pattern: RegExp) =>
  waitFor(
    async () => {
      const out = await run(['get', 'apiservices', name, '--no-headers'])
      return out.code === 0 && pattern.test(out.stdout) ? out.stdout : undefined
    },
    { what: `apiservice ${name} to be ${pattern}`, timeoutMs: 30_000, intervalMs: 300 },
  )

beforeAll(async () => {
  server = await startServer()
})

afterAll(async () => {
  await server?.dispose()
})

describe('APIServices', () => {
  it('lists a Local APIService per served group version, available, and puts back one that is deleted', async () => {
    const row = await availableAs('v1.apps', /^v1\.apps\s+Local\s+True\s+\S+\s*$/)
    expect(row).toBeTruthy()
    const all = await run(['get', 'apiservices'])
    expect(all.stdout).toMatch(/^NAME\s+SERVICE\s+AVAILABLE\s+AGE\n/)
    for (const name of ['v1.', 'v1.batch', 'v2.autoscaling', 'v1.apiregistration.k8s.io'])
      expect(all.stdout).toMatch(new RegExp(`^${name.replace(/\./g, '\\.')}\\s+Local\\s+True`, 'm'))
    const apps = await json(['get', 'apiservice', 'v1.apps', '-o', 'json'])
    expect(apps.metadata.labels).toEqual({ 'kube-aggregator.kubernetes.io/automanaged': 'onstart' })
    expect(apps.status.conditions).toEqual([
      expect.objectContaining({
        type: 'Available',
        status: 'True',
        reason: 'Local',
        message: 'Local APIServices are always available',
      }),
    ])

    const uid = apps.metadata.uid
    expect((await run(['delete', 'apiservice', 'v1.apps'])).code).toBe(0)
    const back = await waitFor(
      async () => {
        const o = await json(['get', 'apiservice', 'v1.apps', '-o', 'json']).catch(() => undefined)
        return o && o.metadata.uid !== uid ? o : undefined
      },
      { what: 'v1.apps to be recreated', timeoutMs: 30_000, intervalMs: 300 },
    )
    expect(back.spec).toEqual(apps.spec)
    await availableAs('v1.apps', /Local\s+True/)
  })

  it('refuses an invalid APIService with 422 naming the field', async () => {
    const bad = (
      await run(
        ['apply', '-f', '-'],
        metricsApiService
          .replace('groupPriorityMinimum: 100', 'groupPriorityMinimum: 0')
          .replace('name: v1beta1.metrics.k8s.io', 'name: metrics'),
      )
    ).stderr
    expect(bad).toContain('The APIService "metrics" is invalid')
    expect(bad).toContain(
      'metadata.name: Invalid value: "metrics": must be `spec.version+"."+spec.group`: "v1beta1.metrics.k8s.io"',
    )
    expect(bad).toContain(
      'spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000',
    )
  })

  it('accepts metrics-server’s APIService, reports it unavailable, and answers its group version with 503', async () => {
    const applied = await run(['apply', '-f', '-'], metricsApiService)
    expect(applied.stderr).toBe('')
    expect(applied.stdout).toContain(
      'apiservice.apiregistration.k8s.io/v1beta1.metrics.k8s.io created',
    )
    await availableAs(
      'v1beta1.metrics.k8s.io',
      /^v1beta1\.metrics\.k8s\.io\s+kube-system\/metrics-server\s+False \(ServiceNotFound\)/,
    )
    const again = await run(
      ['apply', '-f', '-'],
      metricsApiService.replace('versionPriority: 100', 'versionPriority: 101'),
    )
    expect(again.stdout).toContain(
      'apiservice.apiregistration.k8s.io/v1beta1.metrics.k8s.io configured',
    )
    expect(
      (await json(['get', 'apiservice', 'v1beta1.metrics.k8s.io', '-o', 'json'])).spec,
    ).toMatchObject({ versionPriority: 101, service: { port: 443 } })

    // With a Service and a ready endpoint the reason becomes that requests are not proxied.
    const svc = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'metrics-server', namespace: 'kube-system' },
      spec: { ports: [{ name: 'https', port: 443, targetPort: 4443 }] },
    }
    const eps = {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'metrics-server', namespace: 'kube-system' },
      subsets: [{ addresses: [{ ip: '10.0.0.5' }], ports: [{ name: 'https', port: 4443 }] }],
    }
    expect((await run(['apply', '-f', '-'], stream(svc, eps))).code).toBe(0)
    await availableAs('v1beta1.metrics.k8s.io', /False \(NotProxied\)/)
    const o = await json(['get', 'apiservice', 'v1beta1.metrics.k8s.io', '-o', 'json'])
    expect(o.status.conditions[0].message).toBe(
      'this API server does not proxy aggregated APIs; requests for metrics.k8s.io/v1beta1 are not served',
    )

    const raw = await run(['get', '--raw', '/apis/metrics.k8s.io/v1beta1'])
    expect(raw.code).not.toBe(0)
    expect(raw.stderr).toContain('Error from server (ServiceUnavailable)')
    expect(raw.stderr).toContain('the aggregated API metrics.k8s.io/v1beta1')
    expect(raw.stderr).toContain('this API server does not proxy aggregated APIs')
    const top = await run(['get', '--raw', '/apis/metrics.k8s.io/v1beta1/nodes'])
    expect(top.stderr).toContain('Error from server (ServiceUnavailable)')

    // Discovery does not list the group: it is not served.
    const groups = JSON.parse((await run(['get', '--raw', '/apis'])).stdout)
    expect(groups.groups.map((g: { name: string }) => g.name)).not.toContain('metrics.k8s.io')
    expect(groups.groups.map((g: { name: string }) => g.name)).toContain('apiregistration.k8s.io')
    const resources = await run(['api-resources', '--api-group=apiregistration.k8s.io'])
    expect(resources.stdout).toMatch(
      /^apiservices\s+apiregistration\.k8s\.io\/v1\s+false\s+APIService\s*$/m,
    )
  })
})
