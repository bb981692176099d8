import { describe, expect, it } from 'vitest'
import { api } from './helpers'
import { namespaceWithQuota } from './quota-namespace'
import { runner } from './controller-runner'

/** The Warning events about an object, once the controller has written them (bounded passes at `clock`). */
async function warningsAbout(
  controller: string,
  namespace: string,
  name: string,
  reason: string,
  clock: () => number,
): Promise<any[]> {
  const passes = runner(controller)
  for (let i = 0; i < 6; i++) {
    await passes.pass(clock)
    const events = (
      await api(
        'GET',
        `/api/v1/namespaces/${namespace}/events?fieldSelector=involvedObject.name%3D${name}`,
      )
    ).json.items
    const warnings = events.filter((e: any) => e.type === 'Warning' && e.reason === reason)
    if (warnings.length) return warnings
  }
  throw new Error(`no ${reason} warning about ${namespace}/${name}`)
}

/** Each FailedCreate warning is `<prefix><the API's error>`, from the controller, about the object. */
function expectFailedCreates(
  warnings: any[],
  component: string,
  involved: Record<string, string>,
  prefix: string,
  apiError: RegExp,
) {
  for (const e of warnings) {
    expect(e.source.component).toBe(component)
    expect(e.involvedObject).toMatchObject(involved)
    expect(e.message.startsWith(prefix)).toBe(true)
    expect(e.message.slice(prefix.length)).toMatch(apiError)
  }
}

describe("DaemonSet and CronJob creates refused by the namespace's quota", () => {
  it('a DaemonSet creates no pod under pods: 0 and reports the quota error as FailedCreate', async () => {
    await namespaceWithQuota('quota-ds', { pods: '0' }, runner('resourcequota'))
    const node = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'quota-ds-node', labels: { 'kubernetes.io/hostname': 'quota-ds-node' } },
    }
    expect((await api('POST', '/api/v1/nodes', node)).status).toBe(201)
    const ds = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent' },
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        template: {
          metadata: { labels: { app: 'agent' } },
          spec: { containers: [{ name: 'c', image: 'busybox' }] },
        },
      },
    }
    expect((await api('POST', '/apis/apps/v1/namespaces/quota-ds/daemonsets', ds)).status).toBe(201)

    const failed = await warningsAbout('daemonset', 'quota-ds', 'agent', 'FailedCreate', Date.now)
    const quotaError =
      /^pods "agent-[a-z0-9]{5}" is forbidden: exceeded quota: q, requested: pods=1, used: pods=0, limited: pods=0$/
    expectFailedCreates(
      failed,
      'daemonset-controller',
      { kind: 'DaemonSet', namespace: 'quota-ds', name: 'agent' },
      'Error creating: ',
      quotaError,
    )
    expect((await api('GET', '/api/v1/namespaces/quota-ds/pods')).json.items).toEqual([])
  })

  it('a CronJob creates no Job under count/jobs.batch: 0 and reports the quota error as FailedCreate', async () => {
    await namespaceWithQuota('quota-cj', { 'count/jobs.batch': '0' }, runner('resourcequota'))
    const cj = {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'tick' },
      spec: {
        schedule: '*/1 * * * *',
        jobTemplate: {
          spec: {
            template: {
              spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] },
            },
          },
        },
      },
    }
    expect((await api('POST', '/apis/batch/v1/namespaces/quota-cj/cronjobs', cj)).status).toBe(201)

    // Two minutes on, a run is due.
    const later = () => Date.now() + 120_000
    const failed = await warningsAbout('cronjob', 'quota-cj', 'tick', 'FailedCreate', later)
    const quotaError =
      /^jobs\.batch "tick-\d+" is forbidden: exceeded quota: q, requested: count\/jobs\.batch=1, used: count\/jobs\.batch=0, limited: count\/jobs\.batch=0$/
    expectFailedCreates(
      failed,
      'cronjob-controller',
      { kind: 'CronJob', namespace: 'quota-cj', name: 'tick' },
      'Error creating job: ',
      quotaError,
    )
    expect((await api('GET', '/apis/batch/v1/namespaces/quota-cj/jobs')).json.items).toEqual([])
    const stored = (await api('GET', '/apis/batch/v1/namespaces/quota-cj/cronjobs/tick')).json
    expect(stored.status?.active ?? []).toEqual([])
  })
})
