import { describe, it, expect } from 'vitest'
import type { KubeObject } from '../../../src/apimachinery/types'
import { age, humanDuration } from '../../../src/printers/duration'
import { genericPrinter } from '../../../src/printers/columns'
import { podPrinter } from '../../../src/printers/pod'
import { nodePrinter } from '../../../src/printers/node'
import { newPod } from '../../helpers'
import {
  controllerRevisionPrinter,
  daemonSetPrinter,
  deploymentPrinter,
  replicaSetPrinter,
  statefulSetPrinter,
} from '../../../src/printers/workloads'
import { cronJobPrinter, jobPrinter } from '../../../src/printers/batch'
import {
  endpointSlicePrinter,
  endpointsPrinter,
  servicePrinter,
} from '../../../src/printers/service'
import {
  configMapPrinter,
  leasePrinter,
  namespacePrinter,
  secretPrinter,
  serviceAccountPrinter,
} from '../../../src/printers/config'
import { eventPrinter } from '../../../src/printers/event'
import { buildTable, printerFor, type Table } from '../../../src/printers/table'

const S = 1000
const M = 60 * S
const H = 60 * M
const D = 24 * H
const NOW = Date.parse('2025-06-01T12:00:00Z')

/** An RFC 3339 timestamp `ms` before NOW. */
function ago(ms: number): string {
  return new Date(NOW - ms).toISOString().replace('.000Z', 'Z')
}

function meta(name: string, extra: Record<string, unknown> = {}) {
  return {
    name,
    namespace: 'default',
    uid: `uid-${name}`,
    resourceVersion: '1004',
    creationTimestamp: ago(18 * S),
    ...extra,
  }
}

/** The cells of one printer for one object, by column name. */
function byName(
  printer: { columns: { name: string }[] },
  cells: unknown[],
): Record<string, unknown> {
  expect(cells).toHaveLength(printer.columns.length)
  return Object.fromEntries(printer.columns.map((c, i) => [c.name, cells[i]]))
}

describe('humanDuration', () => {
  const cases: Array<[number, string]> = [
    [-2 * S, '<invalid>'],
    [-1500, '0s'],
    [-1, '0s'],
    [0, '0s'],
    [999, '0s'],
    [18 * S, '18s'],
    [119 * S + 999, '119s'],
    [2 * M, '2m'],
    [5 * M, '5m'],
    [5 * M + 10 * S, '5m10s'],
    [9 * M + 59 * S, '9m59s'],
    [10 * M, '10m'],
    [10 * M + 30 * S, '10m'],
    [179 * M + 59 * S, '179m'],
    [3 * H, '3h'],
    [3 * H + 2 * M, '3h2m'],
    [7 * H + 59 * M, '7h59m'],
    [8 * H, '8h'],
    [8 * H + 30 * M, '8h'],
    [47 * H + 59 * M, '47h'],
    [2 * D, '2d'],
    [2 * D + 3 * H, '2d3h'],
    [7 * D + 23 * H, '7d23h'],
    [8 * D, '8d'],
    [8 * D + 5 * H, '8d'],
    [729 * D, '729d'],
    [730 * D, '2y'],
    [735 * D, '2y5d'],
    [3 * 365 * D, '3y'],
    [8 * 365 * D - D, '7y364d'],
    [8 * 365 * D, '8y'],
    [10 * 365 * D + 100 * D, '10y'],
    [Number.NaN, '<invalid>'],
  ]
  it.each(cases)('%d ms -> %s', (ms, text) => {
    expect(humanDuration(ms)).toBe(text)
  })

  it('age reads timestamps and treats unset ones as unknown', () => {
    expect(age(ago(5 * M + 10 * S), NOW)).toBe('5m10s')
    expect(age('2025-06-01T11:59:42.123456Z', NOW)).toBe('17s')
    expect(age(undefined, NOW)).toBe('<unknown>')
    expect(age(null, NOW)).toBe('<unknown>')
    expect(age('0001-01-01T00:00:00Z', NOW)).toBe('<unknown>')
    expect(age('not a time', NOW)).toBe('<unknown>')
  })
})

describe('pod printer', () => {
  const running = (name: string, extra: Record<string, unknown> = {}) => ({
    name,
    ready: true,
    started: true,
    restartCount: 0,
    image: 'nginx:1.27',
    state: { running: { startedAt: ago(15 * S) } },
    ...extra,
  })
  const podReady = [
    { type: 'Initialized', status: 'True' },
    { type: 'Ready', status: 'True' },
    { type: 'ContainersReady', status: 'True' },
    { type: 'PodScheduled', status: 'True' },
  ]
  /** Pod web-1, 18 s old, with one container `web` unless the spec says otherwise. */
  const printedPod = (
    spec: Record<string, unknown>,
    status: Record<string, unknown>,
    metaExtra = {},
  ): KubeObject =>
    newPod('web-1', {
      containers: [{ name: 'web', image: 'nginx:1.27' }],
      spec,
      status,
      metadata: meta('web-1', metaExtra),
    })

  const cases: Array<{
    title: string
    pod: KubeObject
    ready: string
    status: string
    restarts: string
  }> = [
    {
      title: 'running and ready',
      pod: printedPod(
        { nodeName: 'node-1' },
        {
          phase: 'Running',
          podIP: '10.0.0.5',
          podIPs: [{ ip: '10.0.0.5' }],
          conditions: podReady,
          containerStatuses: [running('web')],
        },
      ),
      ready: '1/1',
      status: 'Running',
      restarts: '0',
    },
    {
      title: 'pending, not yet scheduled',
      pod: printedPod(
        {},
        {
          phase: 'Pending',
          conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }],
        },
      ),
      ready: '0/1',
      status: 'Pending',
      restarts: '0',
    },
    {
      title: 'scheduling gated',
      pod: printedPod(
        {},
        {
          phase: 'Pending',
          conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }],
        },
      ),
      ready: '0/1',
      status: 'SchedulingGated',
      restarts: '0',
    },
    {
      title: 'containers being created',
      pod: printedPod(
        { nodeName: 'node-1', containers: [{ name: 'web' }, { name: 'sidecar' }] },
        {
          phase: 'Pending',
          containerStatuses: [
            {
              name: 'sidecar',
              ready: false,
              restartCount: 0,
              state: { waiting: { reason: 'ContainerCreating' } },
            },
            {
              name: 'web',
              ready: false,
              restartCount: 0,
              state: { waiting: { reason: 'ContainerCreating' } },
            },
          ],
        },
      ),
      ready: '0/2',
      status: 'ContainerCreating',
      restarts: '0',
    },
    {
      title: 'crash looping, with the time of the last restart',
      pod: printedPod(
        { nodeName: 'node-1' },
        {
          phase: 'Running',
          containerStatuses: [
            {
              name: 'web',
              ready: false,
              restartCount: 5,
              state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 2m40s' } },
              lastState: {
                terminated: {
                  exitCode: 1,
                  reason: 'Error',
                  startedAt: ago(2 * M + 5 * S),
                  finishedAt: ago(2 * M),
                },
              },
            },
          ],
        },
      ),
      ready: '0/1',
      status: 'CrashLoopBackOff',
      restarts: '5 (2m ago)',
    },
    {
      title: 'image pull failure',
      pod: printedPod(
        {},
        {
          phase: 'Pending',
          containerStatuses: [
            {
              name: 'web',
              ready: false,
              restartCount: 0,
              state: { waiting: { reason: 'ImagePullBackOff' } },
            },
          ],
        },
      ),
      ready: '0/1',
      status: 'ImagePullBackOff',
      restarts: '0',
    },
    {
      title: 'completed',
      pod: printedPod(
        { restartPolicy: 'Never' },
        {
          phase: 'Succeeded',
          containerStatuses: [
            {
              name: 'web',
              ready: false,
              restartCount: 0,
              state: { terminated: { exitCode: 0, reason: 'Completed' } },
            },
          ],
        },
      ),
      ready: '0/1',
      status: 'Completed',
      restarts: '0',
    },
    {
      title: 'terminated without a reason: exit code',
      pod: printedPod(
        {},
        {
          phase: 'Failed',
          containerStatuses: [
            {
              name: 'web',
              ready: false,
              restartCount: 0,
              state: { terminated: { exitCode: 137 } },
            },
          ],
        },
      ),
      ready: '0/1',
      status: 'ExitCode:137',
      restarts: '0',
    },
    {
      title: 'terminated without a reason: signal',
      pod: printedPod(
        {},
        {
          phase: 'Failed',
          containerStatuses: [
            {
              name: 'web',
              ready: false,
              restartCount: 0,
              state: { terminated: { exitCode: 0, signal: 9 } },
            },
          ],
        },
      ),
      ready: '0/1',
      status: 'Signal:9',
      restarts: '0',
    },
    {
      title: 'evicted: status.reason wins over the phase',
      pod: printedPod({}, { phase: 'Failed', reason: 'Evicted', message: 'low on memory' }),
      ready: '0/1',
      status: 'Evicted',
      restarts: '0',
    },
    {
      title: 'one container completed while another still runs, pod ready',
      pod: printedPod(
        { containers: [{ name: 'job' }, { name: 'web' }] },
        {
          phase: 'Running',
          conditions: podReady,
          containerStatuses: [
            {
              name: 'job',
              ready: false,
              restartCount: 0,
              state: { terminated: { exitCode: 0, reason: 'Completed' } },
            },
            running('web'),
          ],
        },
      ),
      ready: '1/2',
      status: 'Running',
      restarts: '0',
    },
    {
      title: 'one container completed while another still runs, pod not ready',
      pod: printedPod(
        { containers: [{ name: 'job' }, { name: 'web' }] },
        {
          phase: 'Running',
          conditions: [{ type: 'Ready', status: 'False' }],
          containerStatuses: [
            {
              name: 'job',
              ready: false,
              restartCount: 0,
              state: { terminated: { exitCode: 0, reason: 'Completed' } },
            },
            running('web'),
          ],
        },
      ),
      ready: '1/2',
      status: 'NotReady',
      restarts: '0',
    },
    {
      title: 'terminating',
      pod: printedPod(
        { nodeName: 'node-1' },
        { phase: 'Running', conditions: podReady, containerStatuses: [running('web')] },
        { deletionTimestamp: ago(-30 * S), deletionGracePeriodSeconds: 30 },
      ),
      ready: '1/1',
      status: 'Terminating',
      restarts: '0',
    },
    {
      title: 'deleted after it completed: stays Completed',
      pod: printedPod(
        {},
        {
          phase: 'Succeeded',
          containerStatuses: [
            {
              name: 'web',
              ready: false,
              restartCount: 0,
              state: { terminated: { exitCode: 0, reason: 'Completed' } },
            },
          ],
        },
        { deletionTimestamp: ago(0) },
      ),
      ready: '0/1',
      status: 'Completed',
      restarts: '0',
    },
    {
      title: 'deleted on a lost node',
      pod: printedPod(
        { nodeName: 'node-9' },
        { phase: 'Running', reason: 'NodeLost', containerStatuses: [running('web')] },
        { deletionTimestamp: ago(0) },
      ),
      ready: '1/1',
      status: 'Unknown',
      restarts: '0',
    },
    {
      title: 'first init container running',
      pod: printedPod(
        { initContainers: [{ name: 'migrate' }] },
        {
          phase: 'Pending',
          conditions: [{ type: 'Initialized', status: 'False' }],
          initContainerStatuses: [
            {
              name: 'migrate',
              ready: false,
              restartCount: 0,
              state: { running: { startedAt: ago(3 * S) } },
            },
          ],
          containerStatuses: [
            {
              name: 'web',
              ready: false,
              restartCount: 0,
              state: { waiting: { reason: 'PodInitializing' } },
            },
          ],
        },
      ),
      ready: '0/1',
      status: 'Init:0/1',
      restarts: '0',
    },
    {
      title: 'second of two init containers running',
      pod: printedPod(
        { initContainers: [{ name: 'fetch' }, { name: 'migrate' }] },
        {
          phase: 'Pending',
          initContainerStatuses: [
            {
              name: 'fetch',
              ready: false,
              restartCount: 0,
              state: { terminated: { exitCode: 0, reason: 'Completed' } },
            },
            {
              name: 'migrate',
              ready: false,
              restartCount: 0,
              state: { waiting: { reason: 'PodInitializing' } },
            },
          ],
        },
      ),
      ready: '0/1',
      status: 'Init:1/2',
      restarts: '0',
    },
    {
      title: 'init container crash looping',
      pod: printedPod(
        { initContainers: [{ name: 'migrate' }] },
        {
          phase: 'Pending',
          initContainerStatuses: [
            {
              name: 'migrate',
              ready: false,
              restartCount: 3,
              state: { waiting: { reason: 'CrashLoopBackOff' } },
              lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: ago(30 * S) } },
            },
          ],
          containerStatuses: [
            {
              name: 'web',
              ready: false,
              restartCount: 0,
              state: { waiting: { reason: 'PodInitializing' } },
            },
          ],
        },
      ),
      ready: '0/1',
      status: 'Init:CrashLoopBackOff',
      restarts: '3 (30s ago)',
    },
    {
      title: 'init container failed',
      pod: printedPod(
        { initContainers: [{ name: 'migrate' }] },
        {
          phase: 'Failed',
          initContainerStatuses: [
            {
              name: 'migrate',
              ready: false,
              restartCount: 0,
              state: { terminated: { exitCode: 1, reason: 'Error' } },
            },
          ],
        },
      ),
      ready: '0/1',
      status: 'Init:Error',
      restarts: '0',
    },
    {
      title: 'init container exited without a reason',
      pod: printedPod(
        { initContainers: [{ name: 'migrate' }] },
        {
          phase: 'Pending',
          initContainerStatuses: [
            {
              name: 'migrate',
              ready: false,
              restartCount: 0,
              state: { terminated: { exitCode: 2 } },
            },
          ],
        },
      ),
      ready: '0/1',
      status: 'Init:ExitCode:2',
      restarts: '0',
    },
    {
      title: 'init container killed by a signal',
      pod: printedPod(
        { initContainers: [{ name: 'migrate' }] },
        {
          phase: 'Pending',
          initContainerStatuses: [
            {
              name: 'migrate',
              ready: false,
              restartCount: 0,
              state: { terminated: { exitCode: 137, signal: 9 } },
            },
          ],
        },
      ),
      ready: '0/1',
      status: 'Init:Signal:9',
      restarts: '0',
    },
    {
      title: 'sidecar counts toward ready and restarts, completed init restarts do not',
      pod: printedPod(
        {
          initContainers: [{ name: 'setup' }, { name: 'proxy', restartPolicy: 'Always' }],
        },
        {
          phase: 'Running',
          conditions: podReady,
          initContainerStatuses: [
            {
              name: 'setup',
              ready: false,
              restartCount: 4,
              state: { terminated: { exitCode: 0, reason: 'Completed' } },
              lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: ago(1 * M) } },
            },
            {
              name: 'proxy',
              ready: true,
              started: true,
              restartCount: 2,
              state: { running: { startedAt: ago(50 * M) } },
              lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: ago(H) } },
            },
          ],
          containerStatuses: [
            running('web', {
              restartCount: 1,
              lastState: { terminated: { exitCode: 2, reason: 'Error', finishedAt: ago(5 * M) } },
            }),
          ],
        },
      ),
      ready: '2/2',
      status: 'Running',
      restarts: '3 (5m ago)',
    },
  ]

  it.each(cases)('$title', ({ pod, ready, status, restarts }) => {
    const row = byName(podPrinter, podPrinter.cells(pod, NOW))
    expect(row.Name).toBe('web-1')
    expect(row.Ready).toBe(ready)
    expect(row.Status).toBe(status)
    expect(row.Restarts).toBe(restarts)
    expect(row.Age).toBe('18s')
  })

  it('fills the wide columns', () => {
    expect(podPrinter.cells(cases[0].pod, NOW)).toEqual([
      'web-1',
      '1/1',
      'Running',
      '0',
      '18s',
      '10.0.0.5',
      'node-1',
      '<none>',
      '<none>',
    ])
    const gated = printedPod(
      {
        nodeName: '',
        readinessGates: [{ conditionType: 'example.com/lb' }, { conditionType: 'example.com/dns' }],
      },
      {
        phase: 'Pending',
        podIP: '10.0.0.9',
        nominatedNodeName: 'node-2',
        conditions: [
          { type: 'example.com/lb', status: 'True' },
          { type: 'example.com/dns', status: 'False' },
        ],
      },
    )
    const row = byName(podPrinter, podPrinter.cells(gated, NOW))
    expect(row).toMatchObject({
      IP: '10.0.0.9',
      Node: '<none>',
      'Nominated Node': 'node-2',
      'Readiness Gates': '1/2',
    })
  })

  it('survives a pod with no spec or status', () => {
    const bare: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'bare' } }
    expect(podPrinter.cells(bare, NOW)).toEqual([
      'bare',
      '0/0',
      '',
      '0',
      '<unknown>',
      '<none>',
      '<none>',
      '<none>',
      '<none>',
    ])
  })
})

describe('workload printers', () => {
  const template = {
    metadata: { labels: { app: 'web' } },
    spec: {
      containers: [
        { name: 'nginx', image: 'nginx:1.27' },
        { name: 'sidecar', image: 'busybox:1.36' },
      ],
    },
  }

  it('deployment: Ready r/d, Up-to-date, Available, containers, images, selector', () => {
    const deploy: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: meta('web', { creationTimestamp: ago(10 * S) }),
      spec: { replicas: 7, selector: { matchLabels: { app: 'web' } }, template },
      status: { replicas: 7, readyReplicas: 7, updatedReplicas: 7, availableReplicas: 7 },
    }
    expect(deploymentPrinter.cells(deploy, NOW)).toEqual([
      'web',
      '7/7',
      7,
      7,
      '10s',
      'nginx,sidecar',
      'nginx:1.27,busybox:1.36',
      'app=web',
    ])
  })

  const deploymentCases: Array<
    [string, Record<string, unknown>, Record<string, unknown> | undefined, string, string]
  > = [
    [
      'rolling out',
      { replicas: 3, selector: { matchLabels: { app: 'web' } } },
      { readyReplicas: 1, updatedReplicas: 2, availableReplicas: 1 },
      '1/3',
      'app=web',
    ],
    [
      'no status yet, replicas defaulted',
      { selector: { matchLabels: { app: 'web' } } },
      undefined,
      '0/1',
      'app=web',
    ],
    [
      'scaled to zero',
      { replicas: 0, selector: { matchLabels: { app: 'web' } } },
      {},
      '0/0',
      'app=web',
    ],
    [
      'set-based selector',
      {
        replicas: 2,
        selector: {
          matchLabels: { app: 'web' },
          matchExpressions: [
            { key: 'tier', operator: 'In', values: ['front', 'edge'] },
            { key: 'legacy', operator: 'DoesNotExist' },
            { key: 'env', operator: 'NotIn', values: ['dev'] },
            { key: 'canary', operator: 'Exists' },
          ],
        },
      },
      { readyReplicas: 2 },
      '2/2',
      'app=web,canary,env notin (dev),!legacy,tier in (edge,front)',
    ],
    [
      'bad selector operator',
      { replicas: 1, selector: { matchExpressions: [{ key: 'a', operator: 'Near' }] } },
      {},
      '0/1',
      '<invalid>',
    ],
  ]
  it.each(deploymentCases)('deployment %s', (_title, spec, status, ready, selector) => {
    const deploy: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: meta('web'),
      spec: { ...spec, template },
      ...(status ? { status } : {}),
    }
    const row = byName(deploymentPrinter, deploymentPrinter.cells(deploy, NOW))
    expect(row.Ready).toBe(ready)
    expect(row.Selector).toBe(selector)
  })

  it('replicaset: integer Desired/Current/Ready', () => {
    const rs: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: meta('web-7d4b9c8f5d', { creationTimestamp: ago(3 * H + 2 * M) }),
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'web', 'pod-template-hash': '7d4b9c8f5d' } },
        template,
      },
      status: { replicas: 3, readyReplicas: 2, availableReplicas: 2 },
    }
    expect(replicaSetPrinter.cells(rs, NOW)).toEqual([
      'web-7d4b9c8f5d',
      3,
      3,
      2,
      '3h2m',
      'nginx,sidecar',
      'nginx:1.27,busybox:1.36',
      'app=web,pod-template-hash=7d4b9c8f5d',
    ])
    const empty = { ...rs, spec: { replicas: 0, selector: {}, template }, status: {} }
    expect(byName(replicaSetPrinter, replicaSetPrinter.cells(empty, NOW))).toMatchObject({
      Desired: 0,
      Current: 0,
      Ready: 0,
      Selector: '<none>',
    })
  })

  it('statefulset: Ready r/d, containers, images', () => {
    const sts: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: meta('db', { creationTimestamp: ago(2 * D + 3 * H) }),
      spec: {
        replicas: 3,
        serviceName: 'db',
        selector: { matchLabels: { app: 'db' } },
        template: { spec: { containers: [{ name: 'postgres', image: 'postgres:16' }] } },
      },
      status: { replicas: 2, readyReplicas: 1 },
    }
    expect(statefulSetPrinter.cells(sts, NOW)).toEqual([
      'db',
      '1/3',
      '2d3h',
      'postgres',
      'postgres:16',
    ])
  })

  it('daemonset: scheduling counts and node selector', () => {
    const ds: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: meta('node-exporter', { creationTimestamp: ago(8 * D) }),
      spec: {
        selector: { matchLabels: { app: 'node-exporter' } },
        template: {
          spec: {
            nodeSelector: { 'kubernetes.io/os': 'linux', disk: 'ssd' },
            containers: [{ name: 'exporter', image: 'prom/node-exporter:v1.8.0' }],
          },
        },
      },
      status: {
        desiredNumberScheduled: 3,
        currentNumberScheduled: 3,
        numberReady: 2,
        updatedNumberScheduled: 3,
        numberAvailable: 2,
      },
    }
    expect(daemonSetPrinter.cells(ds, NOW)).toEqual([
      'node-exporter',
      3,
      3,
      2,
      3,
      2,
      'disk=ssd,kubernetes.io/os=linux',
      '8d',
      'exporter',
      'prom/node-exporter:v1.8.0',
      'app=node-exporter',
    ])
    const noSelector = {
      ...ds,
      spec: { ...(ds.spec as object), template: { spec: { containers: [] } } },
      status: {},
    }
    expect(byName(daemonSetPrinter, daemonSetPrinter.cells(noSelector, NOW))).toMatchObject({
      Desired: 0,
      'Node Selector': '<none>',
      Containers: '',
      Images: '',
    })
  })

  it('controllerrevision: controller as kind.group/name', () => {
    const owned: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: meta('db-5c9f7d8b6', {
        ownerReferences: [
          { apiVersion: 'v1', kind: 'ConfigMap', name: 'not-controller', uid: 'u0' },
          { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: 'u1', controller: true },
        ],
      }),
      revision: 2,
      data: {},
    }
    expect(controllerRevisionPrinter.cells(owned, NOW)).toEqual([
      'db-5c9f7d8b6',
      'statefulset.apps/db',
      2,
      '18s',
    ])
    const core = {
      ...owned,
      metadata: meta('x', {
        ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'u', controller: true }],
      }),
    }
    expect(controllerRevisionPrinter.cells(core, NOW)[1]).toBe('pod/p')
    const orphan = { ...owned, metadata: meta('y') }
    expect(controllerRevisionPrinter.cells(orphan, NOW)[1]).toBe('<none>')
  })
})

describe('batch printers', () => {
  const template = {
    spec: { containers: [{ name: 'pi', image: 'perl:5.34' }], restartPolicy: 'Never' },
  }
  const job = (
    spec: Record<string, unknown>,
    status: Record<string, unknown>,
    metaExtra = {},
  ): KubeObject => ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: meta('pi', { creationTimestamp: ago(5 * M), ...metaExtra }),
    spec: {
      selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': 'abc' } },
      template,
      ...spec,
    },
    status,
  })

  const cases: Array<[string, KubeObject, string, string, string]> = [
    [
      'complete',
      job(
        { completions: 1, parallelism: 1 },
        {
          startTime: ago(5 * M),
          completionTime: ago(5 * M - 12 * S),
          succeeded: 1,
          conditions: [
            { type: 'SuccessCriteriaMet', status: 'True' },
            { type: 'Complete', status: 'True' },
          ],
        },
      ),
      'Complete',
      '1/1',
      '12s',
    ],
    [
      'running, several completions',
      job(
        { completions: 5, parallelism: 2 },
        { startTime: ago(3 * M + 20 * S), succeeded: 2, active: 2 },
      ),
      'Running',
      '2/5',
      '3m20s',
    ],
    [
      'work queue: no completions, parallel',
      job({ parallelism: 3 }, { startTime: ago(40 * S), active: 3 }),
      'Running',
      '0/1 of 3',
      '40s',
    ],
    ['not started yet', job({ completions: 1 }, {}), 'Running', '0/1', ''],
    [
      'failed',
      job(
        { completions: 1, backoffLimit: 0 },
        {
          startTime: ago(4 * M),
          failed: 1,
          conditions: [
            { type: 'FailureTarget', status: 'True' },
            { type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded' },
          ],
        },
      ),
      'Failed',
      '0/1',
      '4m',
    ],
    [
      'failure target reached',
      job({}, { startTime: ago(20 * S), conditions: [{ type: 'FailureTarget', status: 'True' }] }),
      'FailureTarget',
      '0/1',
      '20s',
    ],
    [
      'suspended',
      job({ suspend: true }, { conditions: [{ type: 'Suspended', status: 'True' }] }),
      'Suspended',
      '0/1',
      '',
    ],
    [
      'terminating',
      job({}, { startTime: ago(M) }, { deletionTimestamp: ago(0) }),
      'Terminating',
      '0/1',
      '60s',
    ],
  ]
  it.each(cases)('job %s', (_title, obj, status, completions, duration) => {
    const row = byName(jobPrinter, jobPrinter.cells(obj, NOW))
    expect(row).toMatchObject({
      Name: 'pi',
      Status: status,
      Completions: completions,
      Duration: duration,
      Age: '5m',
      Containers: 'pi',
      Images: 'perl:5.34',
      Selector: 'batch.kubernetes.io/controller-uid=abc',
    })
  })

  it('cronjob', () => {
    const cj: KubeObject = {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: meta('backup', { creationTimestamp: ago(2 * D) }),
      spec: {
        schedule: '*/5 * * * *',
        timeZone: 'Etc/UTC',
        suspend: false,
        jobTemplate: { spec: { template } },
      },
      status: {
        active: [{ kind: 'Job', name: 'backup-1', namespace: 'default' }],
        lastScheduleTime: ago(3 * M),
      },
    }
    expect(cronJobPrinter.cells(cj, NOW)).toEqual([
      'backup',
      '*/5 * * * *',
      'Etc/UTC',
      'False',
      1,
      '3m',
      '2d',
      'pi',
      'perl:5.34',
      '<none>',
    ])
    const fresh = {
      ...cj,
      spec: { schedule: '@hourly', jobTemplate: { spec: { template } } },
      status: {},
    }
    expect(byName(cronJobPrinter, cronJobPrinter.cells(fresh, NOW))).toMatchObject({
      Timezone: '<none>',
      Suspend: '<unset>',
      Active: 0,
      'Last Schedule': '<none>',
    })
  })
})

describe('service printers', () => {
  const svc = (
    spec: Record<string, unknown>,
    status: Record<string, unknown> = {},
  ): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: meta('web'),
    spec,
    status,
  })

  const cases: Array<[string, KubeObject, string, string, string, string, string]> = [
    [
      'cluster IP, two ports',
      svc({
        type: 'ClusterIP',
        clusterIP: '10.96.0.10',
        clusterIPs: ['10.96.0.10'],
        selector: { app: 'web' },
        ports: [
          { name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' },
          { name: 'https', port: 443, targetPort: 8443, protocol: 'TCP' },
        ],
      }),
      'ClusterIP',
      '10.96.0.10',
      '<none>',
      '80/TCP,443/TCP',
      'app=web',
    ],
    [
      'type and protocol defaulted',
      svc({ clusterIP: '10.96.0.11', ports: [{ port: 53, protocol: 'UDP' }, { port: 8080 }] }),
      'ClusterIP',
      '10.96.0.11',
      '<none>',
      '53/UDP,8080/TCP',
      '<none>',
    ],
    [
      'cluster IP with external IPs',
      svc({
        type: 'ClusterIP',
        clusterIPs: ['10.96.0.12'],
        externalIPs: ['198.51.100.7', '198.51.100.8'],
        ports: [{ port: 80, protocol: 'TCP' }],
      }),
      'ClusterIP',
      '10.96.0.12',
      '198.51.100.7,198.51.100.8',
      '80/TCP',
      '<none>',
    ],
    [
      'headless',
      svc({
        clusterIP: 'None',
        clusterIPs: ['None'],
        selector: { app: 'db' },
        ports: [{ port: 5432, protocol: 'TCP' }],
      }),
      'ClusterIP',
      'None',
      '<none>',
      '5432/TCP',
      'app=db',
    ],
    [
      'node port',
      svc({
        type: 'NodePort',
        clusterIPs: ['10.96.0.13'],
        ports: [
          { port: 80, nodePort: 30080, protocol: 'TCP' },
          { port: 443, nodePort: 30443, protocol: 'TCP' },
        ],
      }),
      'NodePort',
      '10.96.0.13',
      '<none>',
      '80:30080/TCP,443:30443/TCP',
      '<none>',
    ],
    [
      'load balancer pending',
      svc({
        type: 'LoadBalancer',
        clusterIPs: ['10.96.0.14'],
        ports: [{ port: 443, nodePort: 30443, protocol: 'TCP' }],
      }),
      'LoadBalancer',
      '10.96.0.14',
      '<pending>',
      '443:30443/TCP',
      '<none>',
    ],
    [
      'load balancer with ingress IPs and hostnames',
      svc(
        {
          type: 'LoadBalancer',
          clusterIPs: ['10.96.0.15'],
          ports: [{ port: 80, nodePort: 31000, protocol: 'TCP' }],
        },
        {
          loadBalancer: {
            ingress: [
              { ip: '203.0.113.20' },
              { hostname: 'lb.example.com' },
              { ip: '203.0.113.10' },
              { ip: '203.0.113.10' },
            ],
          },
        },
      ),
      'LoadBalancer',
      '10.96.0.15',
      '203.0.113.10,203.0.113.20,lb.example.com',
      '80:31000/TCP',
      '<none>',
    ],
    [
      'load balancer with ingress and external IPs',
      svc(
        {
          type: 'LoadBalancer',
          clusterIPs: ['10.96.0.16'],
          externalIPs: ['198.51.100.9'],
          ports: [{ port: 80, nodePort: 31001, protocol: 'TCP' }],
        },
        { loadBalancer: { ingress: [{ ip: '203.0.113.30' }] } },
      ),
      'LoadBalancer',
      '10.96.0.16',
      '203.0.113.30,198.51.100.9',
      '80:31001/TCP',
      '<none>',
    ],
    [
      'external name',
      svc({ type: 'ExternalName', externalName: 'db.example.com' }),
      'ExternalName',
      '<none>',
      'db.example.com',
      '<none>',
      '<none>',
    ],
  ]
  it.each(cases)('service %s', (_title, obj, type, clusterIP, externalIP, ports, selector) => {
    expect(servicePrinter.cells(obj, NOW)).toEqual([
      'web',
      type,
      clusterIP,
      externalIP,
      ports,
      '18s',
      selector,
    ])
  })

  it('endpoints', () => {
    const ep = (subsets: unknown): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: meta('web'),
      ...(subsets ? { subsets } : {}),
    })
    expect(
      endpointsPrinter.cells(
        ep([
          {
            addresses: [{ ip: '10.0.0.5' }, { ip: '10.0.0.6' }],
            ports: [{ port: 8080, protocol: 'TCP' }],
          },
        ]),
        NOW,
      ),
    ).toEqual(['web', '10.0.0.5:8080,10.0.0.6:8080', '18s'])
    expect(endpointsPrinter.cells(ep(undefined), NOW)[1]).toBe('<none>')
    expect(
      endpointsPrinter.cells(
        ep([{ notReadyAddresses: [{ ip: '10.0.0.7' }], ports: [{ port: 80 }] }]),
        NOW,
      )[1],
    ).toBe('')
    expect(endpointsPrinter.cells(ep([{ addresses: [{ ip: '10.0.0.5' }] }]), NOW)[1]).toBe(
      '10.0.0.5',
    )
    expect(
      endpointsPrinter.cells(
        ep([{ addresses: [{ ip: 'fd00::5' }], ports: [{ port: 80 }] }]),
        NOW,
      )[1],
    ).toBe('[fd00::5]:80')
    const five = [1, 2, 3, 4, 5].map((i) => ({ ip: `10.0.0.${i}` }))
    expect(endpointsPrinter.cells(ep([{ addresses: five, ports: [{ port: 80 }] }]), NOW)[1]).toBe(
      '10.0.0.1:80,10.0.0.2:80,10.0.0.3:80 + 2 more...',
    )
  })

  it('endpointslice', () => {
    const slice: KubeObject = {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: meta('web-abcde'),
      addressType: 'IPv4',
      ports: [
        { name: 'http', port: 8080, protocol: 'TCP' },
        { name: 'metrics', protocol: 'TCP' },
        {},
      ],
      endpoints: [
        { addresses: ['10.0.0.5'], conditions: { ready: true } },
        { addresses: ['10.0.0.6', '10.0.0.7'] },
        { addresses: ['10.0.0.8'] },
      ],
    }
    expect(endpointSlicePrinter.cells(slice, NOW)).toEqual([
      'web-abcde',
      'IPv4',
      '8080,metrics,*',
      '10.0.0.5,10.0.0.6,10.0.0.7 + 1 more...',
      '18s',
    ])
    const empty = { ...slice, ports: null, endpoints: [] }
    expect(endpointSlicePrinter.cells(empty, NOW)).toEqual([
      'web-abcde',
      'IPv4',
      '<unset>',
      '<unset>',
      '18s',
    ])
  })
})

describe('node printer', () => {
  const node = (extra: {
    labels?: Record<string, string>
    unschedulable?: boolean
    conditions?: unknown[]
  }): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: 'node-1',
      uid: 'n1',
      creationTimestamp: ago(45 * D),
      labels: extra.labels ?? {},
    },
    spec: extra.unschedulable ? { unschedulable: true } : {},
    status: {
      conditions: extra.conditions ?? [
        { type: 'MemoryPressure', status: 'False' },
        { type: 'Ready', status: 'True' },
      ],
      addresses: [
        { type: 'Hostname', address: 'node-1' },
        { type: 'InternalIP', address: '192.168.1.10' },
      ],
      nodeInfo: {
        kubeletVersion: 'v1.32.4',
        osImage: 'Ubuntu 24.04 LTS',
        kernelVersion: '6.8.0-45-generic',
        containerRuntimeVersion: 'containerd://1.7.22',
      },
    },
  })

  const cases: Array<[string, KubeObject, string, string]> = [
    ['ready worker', node({}), 'Ready', '<none>'],
    ['not ready', node({ conditions: [{ type: 'Ready', status: 'False' }] }), 'NotReady', '<none>'],
    [
      'ready unknown',
      node({ conditions: [{ type: 'Ready', status: 'Unknown' }] }),
      'NotReady',
      '<none>',
    ],
    ['no Ready condition', node({ conditions: [] }), 'Unknown', '<none>'],
    ['cordoned', node({ unschedulable: true }), 'Ready,SchedulingDisabled', '<none>'],
    [
      'control plane',
      node({
        labels: { 'node-role.kubernetes.io/control-plane': '', 'kubernetes.io/os': 'linux' },
      }),
      'Ready',
      'control-plane',
    ],
    [
      'several roles, legacy label, sorted and deduplicated',
      node({
        labels: {
          'node-role.kubernetes.io/worker': '',
          'node-role.kubernetes.io/': '',
          'kubernetes.io/role': 'ingress',
          'node-role.kubernetes.io/ingress': 'true',
        },
        unschedulable: true,
        conditions: [{ type: 'Ready', status: 'False' }],
      }),
      'NotReady,SchedulingDisabled',
      'ingress,worker',
    ],
  ]
  it.each(cases)('%s', (_title, obj, status, roles) => {
    expect(nodePrinter.cells(obj, NOW)).toEqual([
      'node-1',
      status,
      roles,
      '45d',
      'v1.32.4',
      '192.168.1.10',
      '<none>',
      'Ubuntu 24.04 LTS',
      '6.8.0-45-generic',
      'containerd://1.7.22',
    ])
  })

  it('unknown system info', () => {
    const bare: KubeObject = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n', creationTimestamp: ago(M) },
    }
    expect(nodePrinter.cells(bare, NOW)).toEqual([
      'n',
      'Unknown',
      '<none>',
      '60s',
      '',
      '<none>',
      '<none>',
      '<unknown>',
      '<unknown>',
      '<unknown>',
    ])
  })
})

describe('event printer', () => {
  it('core v1 event', () => {
    const ev: KubeObject = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: meta('web-1.17f3a2b4c5d6e7f8', { creationTimestamp: ago(5 * M) }),
      involvedObject: {
        kind: 'Pod',
        namespace: 'default',
        name: 'web-1',
        uid: 'p1',
        apiVersion: 'v1',
        fieldPath: 'spec.containers{web}',
      },
      reason: 'BackOff',
      message: 'Back-off restarting failed container web in pod web-1\n',
      source: { component: 'kubelet', host: 'node-1' },
      firstTimestamp: ago(5 * M),
      lastTimestamp: ago(20 * S),
      count: 12,
      type: 'Warning',
      eventTime: null,
      reportingComponent: 'kubelet',
      reportingInstance: 'node-1',
    }
    expect(eventPrinter.cells(ev, NOW)).toEqual([
      '20s',
      'Warning',
      'BackOff',
      'pod/web-1',
      'spec.containers{web}',
      'kubelet, node-1',
      'Back-off restarting failed container web in pod web-1',
      '5m',
      12,
      'web-1.17f3a2b4c5d6e7f8',
    ])
  })

  it('new-style core v1 event with eventTime, series and reporting fields', () => {
    const ev: KubeObject = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: meta('web.1'),
      involvedObject: {
        kind: 'Deployment',
        namespace: 'default',
        name: 'web',
        apiVersion: 'apps/v1',
      },
      reason: 'ScalingReplicaSet',
      message: 'Scaled up replica set web-7d4b9c8f5d to 3',
      source: {},
      firstTimestamp: null,
      lastTimestamp: null,
      eventTime: '2025-06-01T11:58:00.000000Z',
      series: { count: 4, lastObservedTime: '2025-06-01T11:59:30.000000Z' },
      type: 'Normal',
      reportingComponent: 'deployment-controller',
      reportingInstance: '',
    }
    const row = byName(eventPrinter, eventPrinter.cells(ev, NOW))
    expect(row).toMatchObject({
      'Last Seen': '30s',
      'First Seen': '2m',
      Count: 4,
      Object: 'deployment/web',
      Source: 'deployment-controller',
      Subobject: '',
    })
  })

  it('singleton event without count or times', () => {
    const ev: KubeObject = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: meta('ns.1'),
      involvedObject: { kind: 'Namespace' },
      reason: 'Created',
      message: 'created',
      type: 'Normal',
    }
    const row = byName(eventPrinter, eventPrinter.cells(ev, NOW))
    expect(row).toMatchObject({
      'Last Seen': '<unknown>',
      'First Seen': '<unknown>',
      Count: 1,
      Object: 'namespace',
      Source: '',
    })
  })

  it('events.k8s.io/v1 event reads regarding, note and deprecated fields', () => {
    const ev: KubeObject = {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: meta('web-1.abc'),
      eventTime: '2025-06-01T11:57:00.000000Z',
      reportingController: 'default-scheduler',
      reportingInstance: 'scheduler-0',
      action: 'Binding',
      reason: 'Scheduled',
      regarding: { kind: 'Pod', namespace: 'default', name: 'web-1' },
      note: 'Successfully assigned default/web-1 to node-1',
      type: 'Normal',
      deprecatedCount: 2,
      deprecatedLastTimestamp: ago(M),
    }
    expect(eventPrinter.cells(ev, NOW)).toEqual([
      '60s',
      'Normal',
      'Scheduled',
      'pod/web-1',
      '',
      'default-scheduler, scheduler-0',
      'Successfully assigned default/web-1 to node-1',
      '3m',
      2,
      'web-1.abc',
    ])
  })
})

describe('config printers', () => {
  it('configmap counts data and binaryData', () => {
    const cm: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: meta('app-config'),
      data: { a: '1', b: '2' },
      binaryData: { c: 'AA==' },
    }
    expect(configMapPrinter.cells(cm, NOW)).toEqual(['app-config', 3, '18s'])
    expect(configMapPrinter.cells({ ...cm, data: undefined, binaryData: undefined }, NOW)[1]).toBe(
      0,
    )
  })

  it('secret type and data', () => {
    const tls: KubeObject = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: meta('tls'),
      type: 'kubernetes.io/tls',
      data: { 'tls.crt': 'eA==', 'tls.key': 'eA==' },
    }
    expect(secretPrinter.cells(tls, NOW)).toEqual(['tls', 'kubernetes.io/tls', 2, '18s'])
    const opaque: KubeObject = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: meta('s'),
      data: { a: 'eA==' },
      stringData: { a: 'x', b: 'y' },
    }
    expect(secretPrinter.cells(opaque, NOW)).toEqual(['s', 'Opaque', 2, '18s'])
  })

  it('serviceaccount counts secrets', () => {
    expect(
      serviceAccountPrinter.cells(
        { apiVersion: 'v1', kind: 'ServiceAccount', metadata: meta('default') },
        NOW,
      ),
    ).toEqual(['default', 0, '18s'])
    expect(
      serviceAccountPrinter.cells(
        {
          apiVersion: 'v1',
          kind: 'ServiceAccount',
          metadata: meta('ci'),
          secrets: [{ name: 'ci-token' }],
        },
        NOW,
      ),
    ).toEqual(['ci', 1, '18s'])
  })

  it('namespace status', () => {
    const ns = (status: unknown, extra = {}): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'team-a', creationTimestamp: ago(3 * 365 * D), ...extra },
      ...(status ? { status } : {}),
    })
    expect(namespacePrinter.cells(ns({ phase: 'Active' }), NOW)).toEqual(['team-a', 'Active', '3y'])
    expect(namespacePrinter.cells(ns({ phase: 'Terminating' }), NOW)[1]).toBe('Terminating')
    expect(namespacePrinter.cells(ns(undefined), NOW)[1]).toBe('Active')
    expect(namespacePrinter.cells(ns(undefined, { deletionTimestamp: ago(0) }), NOW)[1]).toBe(
      'Terminating',
    )
  })

  it('lease holder', () => {
    const lease: KubeObject = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'node-1', namespace: 'kube-node-lease', creationTimestamp: ago(45 * D) },
      spec: {
        holderIdentity: 'node-1',
        leaseDurationSeconds: 40,
        renewTime: '2025-06-01T11:59:55.000000Z',
      },
    }
    expect(leasePrinter.cells(lease, NOW)).toEqual(['node-1', 'node-1', '45d'])
    expect(leasePrinter.cells({ ...lease, spec: {} }, NOW)[1]).toBe('')
  })
})

describe('printerFor and column definitions', () => {
  const expected: Array<[string, string, string[], string[]]> = [
    [
      '',
      'pods',
      ['Name', 'Ready', 'Status', 'Restarts', 'Age'],
      ['IP', 'Node', 'Nominated Node', 'Readiness Gates'],
    ],
    [
      'apps',
      'deployments',
      ['Name', 'Ready', 'Up-to-date', 'Available', 'Age'],
      ['Containers', 'Images', 'Selector'],
    ],
    [
      'apps',
      'replicasets',
      ['Name', 'Desired', 'Current', 'Ready', 'Age'],
      ['Containers', 'Images', 'Selector'],
    ],
    ['apps', 'statefulsets', ['Name', 'Ready', 'Age'], ['Containers', 'Images']],
    [
      'apps',
      'daemonsets',
      ['Name', 'Desired', 'Current', 'Ready', 'Up-to-date', 'Available', 'Node Selector', 'Age'],
      ['Containers', 'Images', 'Selector'],
    ],
    ['apps', 'controllerrevisions', ['Name', 'Controller', 'Revision', 'Age'], []],
    [
      '',
      'replicationcontrollers',
      ['Name', 'Desired', 'Current', 'Ready', 'Age'],
      ['Containers', 'Images', 'Selector'],
    ],
    ['', 'podtemplates', ['Template', 'Containers', 'Images', 'Pod Labels'], []],
    [
      'scheduling.k8s.io',
      'priorityclasses',
      ['Name', 'Value', 'Global-Default', 'Age', 'PreemptionPolicy'],
      [],
    ],
    ['node.k8s.io', 'runtimeclasses', ['Name', 'Handler', 'Age'], []],
    [
      'batch',
      'jobs',
      ['Name', 'Status', 'Completions', 'Duration', 'Age'],
      ['Containers', 'Images', 'Selector'],
    ],
    [
      'batch',
      'cronjobs',
      ['Name', 'Schedule', 'Timezone', 'Suspend', 'Active', 'Last Schedule', 'Age'],
      ['Containers', 'Images', 'Selector'],
    ],
    ['', 'services', ['Name', 'Type', 'Cluster-IP', 'External-IP', 'Port(s)', 'Age'], ['Selector']],
    ['', 'endpoints', ['Name', 'Endpoints', 'Age'], []],
    [
      'discovery.k8s.io',
      'endpointslices',
      ['Name', 'AddressType', 'Ports', 'Endpoints', 'Age'],
      [],
    ],
    [
      '',
      'nodes',
      ['Name', 'Status', 'Roles', 'Age', 'Version'],
      ['Internal-IP', 'External-IP', 'OS-Image', 'Kernel-Version', 'Container-Runtime'],
    ],
    ['', 'namespaces', ['Name', 'Status', 'Age'], []],
    ['', 'configmaps', ['Name', 'Data', 'Age'], []],
    ['', 'secrets', ['Name', 'Type', 'Data', 'Age'], []],
    ['', 'serviceaccounts', ['Name', 'Secrets', 'Age'], []],
    [
      '',
      'events',
      ['Last Seen', 'Type', 'Reason', 'Object', 'Message'],
      ['Subobject', 'Source', 'First Seen', 'Count', 'Name'],
    ],
    [
      'events.k8s.io',
      'events',
      ['Last Seen', 'Type', 'Reason', 'Object', 'Message'],
      ['Subobject', 'Source', 'First Seen', 'Count', 'Name'],
    ],
    ['coordination.k8s.io', 'leases', ['Name', 'Holder', 'Age'], []],
    ['rbac.authorization.k8s.io', 'roles', ['Name', 'Created At'], []],
    ['rbac.authorization.k8s.io', 'clusterroles', ['Name', 'Created At'], []],
    [
      'rbac.authorization.k8s.io',
      'rolebindings',
      ['Name', 'Role', 'Age'],
      ['Users', 'Groups', 'ServiceAccounts'],
    ],
    [
      'rbac.authorization.k8s.io',
      'clusterrolebindings',
      ['Name', 'Role', 'Age'],
      ['Users', 'Groups', 'ServiceAccounts'],
    ],
    ['example.com', 'widgets', ['Name', 'Age'], []],
  ]
  it.each(expected)('%s/%s', (group, resource, normal, wide) => {
    const { columns } = printerFor(group, resource)
    expect(columns.filter((c) => c.priority === 0).map((c) => c.name)).toEqual(normal)
    expect(columns.filter((c) => c.priority > 0).map((c) => c.name)).toEqual(wide)
    for (const c of columns) {
      expect(Object.keys(c).sort()).toEqual(['description', 'format', 'name', 'priority', 'type'])
      expect(c.description).not.toBe('')
      // PodTemplate's name column is titled Template, as upstream's.
      expect(c.format).toBe(
        c.name === 'Name' || (resource === 'podtemplates' && c.name === 'Template') ? 'name' : '',
      )
      expect(['string', 'integer', 'number', 'boolean', 'date']).toContain(c.type)
    }
  })

  it('resources in the wrong group fall back to Name/Age', () => {
    expect(printerFor('apps', 'pods')).toBe(genericPrinter)
    expect(printerFor('', 'deployments')).toBe(genericPrinter)
  })
})

describe('buildTable', () => {
  const pods: KubeObject[] = [
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: meta('web-1', { labels: { app: 'x' } }),
      spec: { nodeName: 'node-1', containers: [{ name: 'web', image: 'nginx' }] },
      status: {
        phase: 'Running',
        podIP: '10.0.0.5',
        podIPs: [{ ip: '10.0.0.5' }],
        conditions: [{ type: 'Ready', status: 'True' }],
        containerStatuses: [{ name: 'web', ready: true, restartCount: 0, state: { running: {} } }],
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: meta('web-2', { labels: { app: 'x' }, resourceVersion: '1009' }),
      spec: { containers: [{ name: 'web', image: 'nginx' }] },
      status: { phase: 'Pending' },
    },
  ]

  it('builds the Table shape kubectl reads, with PartialObjectMetadata rows by default', () => {
    const table = buildTable(pods, {
      group: '',
      resource: 'pods',
      now: NOW,
      resourceVersion: '1010',
    })
    expect(table).toEqual({
      kind: 'Table',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { resourceVersion: '1010' },
      columnDefinitions: podPrinter.columns,
      rows: [
        {
          cells: ['web-1', '1/1', 'Running', '0', '18s', '10.0.0.5', 'node-1', '<none>', '<none>'],
          object: {
            kind: 'PartialObjectMetadata',
            apiVersion: 'meta.k8s.io/v1',
            metadata: pods[0].metadata,
          },
        },
        {
          cells: ['web-2', '0/1', 'Pending', '0', '18s', '<none>', '<none>', '<none>', '<none>'],
          object: {
            kind: 'PartialObjectMetadata',
            apiVersion: 'meta.k8s.io/v1',
            metadata: pods[1].metadata,
          },
        },
      ],
    })
    const name = table.columnDefinitions?.[0]
    expect(name).toMatchObject({ name: 'Name', type: 'string', format: 'name', priority: 0 })
    expect(table.columnDefinitions?.map((c) => c.priority)).toEqual([0, 0, 0, 0, 0, 1, 1, 1, 1])
    // The wire form survives JSON as is: nothing undefined is left behind.
    expect(JSON.parse(JSON.stringify(table))).toEqual(table)
  })

  it('includeObject=Metadata is the same as leaving it out', () => {
    const a = buildTable(pods, { group: '', resource: 'pods', now: NOW })
    const b = buildTable(pods, { group: '', resource: 'pods', now: NOW, includeObject: 'Metadata' })
    expect(a).toEqual(b)
  })

  it('includeObject=Object carries the full object (for --sort-by)', () => {
    const table = buildTable(pods, {
      group: '',
      resource: 'pods',
      now: NOW,
      includeObject: 'Object',
    })
    expect(table.rows.map((r) => r.object)).toEqual(pods)
  })

  it('includeObject=None leaves the object out', () => {
    const table = buildTable(pods, { group: '', resource: 'pods', now: NOW, includeObject: 'None' })
    for (const row of table.rows) expect('object' in row).toBe(false)
  })

  it('carries list metadata for pagination', () => {
    const table = buildTable(pods.slice(0, 1), {
      group: '',
      resource: 'pods',
      now: NOW,
      resourceVersion: '1010',
      continue: 'eyJvZmZzZXQiOjF9',
      remainingItemCount: 1,
    })
    expect(table.metadata).toEqual({
      resourceVersion: '1010',
      continue: 'eyJvZmZzZXQiOjF9',
      remainingItemCount: 1,
    })
    expect(buildTable([], { group: '', resource: 'pods', now: NOW }).metadata).toEqual({})
  })

  it('omitColumns drops columnDefinitions, for watch events after the first', () => {
    const table = buildTable(pods.slice(0, 1), {
      group: '',
      resource: 'pods',
      now: NOW,
      omitColumns: true,
    })
    expect('columnDefinitions' in table).toBe(false)
    expect(table.rows).toHaveLength(1)
    expect(table.kind).toBe('Table')
  })

  it('an empty list still has rows and columns', () => {
    const table = buildTable([], {
      group: 'apps',
      resource: 'deployments',
      now: NOW,
      resourceVersion: '7',
    })
    expect(table.rows).toEqual([])
    expect(table.columnDefinitions?.map((c) => c.name)).toEqual([
      'Name',
      'Ready',
      'Up-to-date',
      'Available',
      'Age',
      'Containers',
      'Images',
      'Selector',
    ])
  })

  it('uses Name/Age for kinds without their own printer', () => {
    const lease: KubeObject = {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: meta('w', { creationTimestamp: ago(3 * H + 2 * M) }),
    }
    const table = buildTable([lease], { group: 'example.com', resource: 'widgets', now: NOW })
    expect(table.columnDefinitions).toEqual([
      expect.objectContaining({ name: 'Name', format: 'name', priority: 0 }),
      expect.objectContaining({ name: 'Age', format: '', priority: 0 }),
    ])
    expect(table.rows[0].cells).toEqual(['w', '3h2m'])
  })

  it('prints a binding as its role and its subjects by kind', () => {
    const binding: KubeObject = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: meta('ci', { namespace: 'team', creationTimestamp: ago(3 * H + 2 * M) }),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' },
      subjects: [
        { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'jane' },
        { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'devs' },
        { kind: 'ServiceAccount', name: 'bot', namespace: 'team' },
        { kind: 'ServiceAccount', name: 'local' },
      ],
    }
    const table = buildTable([binding], {
      group: 'rbac.authorization.k8s.io',
      resource: 'rolebindings',
      now: NOW,
    })
    expect(table.rows[0].cells).toEqual([
      'ci',
      'ClusterRole/edit',
      '3h2m',
      'jane',
      'devs',
      'team/bot, local',
    ])
  })

  it('column definitions are copies: editing one table leaves the next intact', () => {
    const first: Table = buildTable([], { group: '', resource: 'pods', now: NOW })
    first.columnDefinitions![0].name = 'changed'
    const second = buildTable([], { group: '', resource: 'pods', now: NOW })
    expect(second.columnDefinitions![0].name).toBe('Name')
  })
})
