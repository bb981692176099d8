import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { kubectlJson, kubectlOn } from './helpers/kubectl'
import { startServer, type TestServer } from './helpers/server'
import { parseTable } from './helpers/table'
import { waitFor } from './helpers/wait'

// API Priority and Fairness objects and the manifests that create them, and Rancher's local-path
// StorageClass, through the real kubectl.

/** A FlowSchema and its priority level as a chart ships them (one file, two documents). */
const chartManifest = `apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: PriorityLevelConfiguration
metadata:
  name: monitoring
  labels:
    app.kubernetes.io/managed-by: Helm
spec:
  type: Limited
  limited:
    nominalConcurrencyShares: 20
    lendablePercent: 25
    limitResponse:
      type: Queue
      queuing:
        queues: 32
        handSize: 4
        queueLengthLimit: 100
---
apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: FlowSchema
metadata:
  name: monitoring-scrapers
  labels:
    app.kubernetes.io/managed-by: Helm
spec:
  priorityLevelConfiguration:
    name: monitoring
  matchingPrecedence: 1500
  distinguisherMethod:
    type: ByUser
  rules:
  - subjects:
    - kind: ServiceAccount
      serviceAccount:
        name: prometheus
        namespace: monitoring
    resourceRules:
    - verbs: ["list", "watch", "get"]
      apiGroups: ["*"]
      resources: ["*"]
      clusterScope: true
      namespaces: ["*"]
    nonResourceRules:
    - verbs: ["get"]
      nonResourceURLs: ["/metrics"]
`

/** The StorageClass of Rancher's local-path-provisioner manifest (local-path-storage.yaml). */
const rancherStorageClass = `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: local-path
provisioner: rancher.io/local-path
volumeBindingMode: WaitForFirstConsumer
reclaimPolicy: Delete
`

describe('flowcontrol.apiserver.k8s.io and a foreign local-path StorageClass', () => {
  let server: TestServer
  const { ok } = kubectlOn(() => server.kubeconfig)
  const json = (args: string[]) => kubectlJson(args, { kubeconfig: server.kubeconfig })

  beforeAll(async () => {
    server = await startServer()
  })

  afterAll(async () => {
    await server?.dispose()
  })

  it('kubectl get flowschemas prints upstream’s columns, by precedence, Dangling filled in by the controller', async () => {
    const table = await waitFor(
      async () => {
        const t = parseTable((await ok(['get', 'flowschemas'])).stdout)
        return t.rows.every((r) => r.MISSINGPL === 'False') && t
      },
      { what: 'every bootstrap FlowSchema with its Dangling condition', timeoutMs: 30_000 },
    )
    expect(table.headers).toEqual([
      'NAME',
      'PRIORITYLEVEL',
      'MATCHINGPRECEDENCE',
      'DISTINGUISHERMETHOD',
      'AGE',
      'MISSINGPL',
    ])
    expect(table.rows.map((r) => r.NAME)).toEqual([
      'exempt',
      'probes',
      'system-leader-election',
      'endpoint-controller',
      'workload-leader-election',
      'system-node-high',
      'system-nodes',
      'kube-controller-manager',
      'kube-scheduler',
      'kube-system-service-accounts',
      'service-accounts',
      'global-default',
      'catch-all',
    ])
    expect(table.rows[0]).toMatchObject({
      PRIORITYLEVEL: 'exempt',
      MATCHINGPRECEDENCE: '1',
      DISTINGUISHERMETHOD: '<none>',
    })
    const resources = (await ok(['api-resources', '--api-group=flowcontrol.apiserver.k8s.io']))
      .stdout
    expect(resources).toMatch(
      /flowschemas\s+flowcontrol\.apiserver\.k8s\.io\/v1\s+false\s+FlowSchema/,
    )
    expect(resources).toMatch(
      /prioritylevelconfigurations\s+flowcontrol\.apiserver\.k8s\.io\/v1\s+false\s+PriorityLevelConfiguration/,
    )
    expect((await ok(['explain', 'flowschema.spec.matchingPrecedence'])).stdout).toMatch(
      /FIELD: matchingPrecedence <integer>[\s\S]*it will be set to 1000 as default/,
    )
  })

  it('applies a chart’s FlowSchema and level, printing the not-enforced warning, and shows them', async () => {
    const applied = await ok(['apply', '-f', '-'], chartManifest)
    expect(applied.stdout).toContain(
      'prioritylevelconfiguration.flowcontrol.apiserver.k8s.io/monitoring created',
    )
    expect(applied.stdout).toContain(
      'flowschema.flowcontrol.apiserver.k8s.io/monitoring-scrapers created',
    )
    expect(applied.stderr).toContain('Warning: API Priority and Fairness is not enforced')
    const again = await ok(['apply', '-f', '-'], chartManifest)
    expect(again.stdout).toContain(
      'flowschema.flowcontrol.apiserver.k8s.io/monitoring-scrapers unchanged',
    )

    const levels = parseTable((await ok(['get', 'prioritylevelconfigurations'])).stdout)
    expect(levels.headers).toEqual([
      'NAME',
      'TYPE',
      'NOMINALCONCURRENCYSHARES',
      'QUEUES',
      'HANDSIZE',
      'QUEUELENGTHLIMIT',
      'AGE',
    ])
    const row = (name: string) => levels.rows.find((r) => r.NAME === name)
    expect(row('monitoring')).toMatchObject({
      TYPE: 'Limited',
      NOMINALCONCURRENCYSHARES: '20',
      QUEUES: '32',
      HANDSIZE: '4',
      QUEUELENGTHLIMIT: '100',
    })
    expect(row('exempt')).toMatchObject({
      TYPE: 'Exempt',
      NOMINALCONCURRENCYSHARES: '<none>',
      QUEUES: '<none>',
    })
    expect(row('catch-all')).toMatchObject({
      TYPE: 'Limited',
      NOMINALCONCURRENCYSHARES: '5',
      QUEUES: '<none>',
    })

    const fs = await waitFor(
      async () => {
        const o = await json(['get', 'flowschema', 'monitoring-scrapers', '-o', 'json'])
        return o.status?.conditions?.some((c: any) => c.type === 'Dangling') && o
      },
      { what: 'the Dangling condition of monitoring-scrapers', timeoutMs: 30_000 },
    )
    expect(fs.status.conditions).toEqual([
      expect.objectContaining({ type: 'Dangling', status: 'False', reason: 'Found' }),
      expect.objectContaining({ type: 'Enforced', status: 'False', reason: 'NotEnforced' }),
    ])
    const described = (await ok(['describe', 'flowschema', 'monitoring-scrapers'])).stdout
    expect(described).toMatch(
      /flowcontrol\.edgeplane\.dev\/enforced:\s+false: this server does not queue/,
    )
    expect(described).toMatch(
      /Message:\s+This server does not classify, queue or shed requests by API Priority and Fairness: this object is stored and validated only\s+Reason:\s+NotEnforced\s+Status:\s+False\s+Type:\s+Enforced/,
    )
    const level = await waitFor(
      async () => {
        const o = await json(['get', 'prioritylevelconfiguration', 'monitoring', '-o', 'json'])
        return o.status?.conditions?.length && o
      },
      { what: 'the Enforced condition of the monitoring level', timeoutMs: 30_000 },
    )
    expect(level.status.conditions).toEqual([
      expect.objectContaining({ type: 'Enforced', status: 'False', reason: 'NotEnforced' }),
    ])
  })

  it('refuses a level whose hand cannot be dealt, naming the field', async () => {
    const bad = chartManifest
      .split('---')[0]!
      .replace('name: monitoring', 'name: wide')
      .replace('queues: 32', 'queues: 512')
      .replace('handSize: 4', 'handSize: 8')
    const res = await kubectlOn(() => server.kubeconfig).run(['apply', '-f', '-'], bad)
    expect(res.code).not.toBe(0)
    expect(res.stderr).toContain(
      'spec.limited.limitResponse.queuing.handSize: Invalid value: 8: required entropy bits of deckSize 512 and handSize 8 should not be greater than 60',
    )
  })

  it('applies Rancher’s local-path StorageClass cleanly beside the default edgeplane-local-path', async () => {
    const applied = await ok(['apply', '-f', '-'], rancherStorageClass)
    expect(applied.stdout).toContain('storageclass.storage.k8s.io/local-path created')
    expect(applied.stderr).toBe('')
    expect((await ok(['apply', '-f', '-'], rancherStorageClass)).stdout).toContain(
      'storageclass.storage.k8s.io/local-path unchanged',
    )
    const classes = parseTable((await ok(['get', 'storageclass'])).stdout)
    expect(classes.rows.map((r) => [r.NAME, r.PROVISIONER])).toEqual(
      expect.arrayContaining([
        ['edgeplane-local-path (default)', 'edgeplane.io/local-path'],
        ['local-path', 'rancher.io/local-path'],
      ]),
    )
  })
})
