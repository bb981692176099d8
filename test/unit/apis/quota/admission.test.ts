import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import { addQuantity, formatQuantity, parseQuantity } from '../../../../src/apimachinery/quantity'
import { checkQuotas } from '../../../../src/apis/quota/check'
import { objectUsage } from '../../../../src/apis/quota/usage'
import { validateResourceQuota } from '../../../../src/apis/quota/validate'
import { podManifest } from '../../../helpers'

const pods = { group: '', plural: 'pods' }
const now = Date.parse('2025-06-01T12:00:00Z')

/** A pod of namespace ns, its one container `app` with these requests and limits. */
const nsPod = (
  name: string,
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> },
): KubeObject =>
  podManifest(name, {
    namespace: 'ns',
    containers: [{ name: 'app', image: 'busybox', ...(resources ? { resources } : {}) }],
  })

function quota(
  name: string,
  hard: Record<string, string>,
  used: Record<string, string> | undefined,
  spec: Record<string, unknown> = {},
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: { name, namespace: 'ns', uid: `uid-${name}` },
    spec: { hard, ...spec },
    status: used ? { hard, used } : {},
  }
}

describe('quantities print as resource.Quantity prints them', () => {
  it.each([
    ['500m', '500m'],
    ['0.5', '500m'],
    ['2000', '2k'],
    ['1500', '1500'],
    ['128Mi', '128Mi'],
    ['1536Mi', '1536Mi'],
    ['1024Mi', '1Gi'],
    ['1e3', '1e3'],
    ['100', '100'],
  ])('%s → %s', (input, shown) => {
    expect(formatQuantity(parseQuantity(input))).toBe(shown)
  })

  it('adds in the format of the first operand', () => {
    expect(formatQuantity(addQuantity(parseQuantity('128Mi'), parseQuantity('64Mi')))).toBe('192Mi')
    expect(formatQuantity(addQuantity(parseQuantity('250m'), parseQuantity('1')))).toBe('1250m')
  })
})

describe('quota usage of objects', () => {
  it('counts a pod by its requests and limits, and count/pods', () => {
    const usage = objectUsage(
      pods,
      nsPod('p', { requests: { cpu: '250m', memory: '64Mi' }, limits: { cpu: '500m' } }),
      now,
    )
    const shown = Object.fromEntries(Object.entries(usage).map(([k, v]) => [k, formatQuantity(v)]))
    expect(shown).toEqual({
      'count/pods': '1',
      pods: '1',
      cpu: '250m',
      'requests.cpu': '250m',
      memory: '64Mi',
      'requests.memory': '64Mi',
      'limits.cpu': '500m',
    })
  })

  it('a finished pod keeps only its object count', () => {
    const done = { ...nsPod('p', { requests: { cpu: '1' } }), status: { phase: 'Succeeded' } }
    expect(Object.keys(objectUsage(pods, done, now))).toEqual(['count/pods'])
  })

  it('counts objects of other groups as count/<resource>.<group>', () => {
    expect(
      Object.keys(
        objectUsage({ group: 'apps', plural: 'deployments' }, { metadata: { name: 'd' } }, now),
      ),
    ).toEqual(['count/deployments.apps'])
  })
})

describe('quota admission decisions', () => {
  it('refuses the pod over the quota with upstream message', () => {
    const d = checkQuotas(pods, nsPod('third'), [quota('q', { pods: '2' }, { pods: '2' })], now)
    expect(d).toEqual({
      ok: false,
      message: 'exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2',
    })
  })

  it('charges every quota the pod fits, adding to status.used', () => {
    const d = checkQuotas(
      pods,
      nsPod('p', { requests: { cpu: '250m' }, limits: { cpu: '250m' } }),
      [
        quota('a', { pods: '3' }, { pods: '1' }),
        quota('b', { 'requests.cpu': '1' }, { 'requests.cpu': '500m' }),
      ],
      now,
    )
    expect(d.ok).toBe(true)
    if (!d.ok) return
    expect(
      d.charges.map((c) => [
        c.quota.metadata.name,
        Object.fromEntries(Object.entries(c.used).map(([k, v]) => [k, formatQuantity(v)])),
      ]),
    ).toEqual([
      ['a', { pods: '2' }],
      ['b', { 'requests.cpu': '750m' }],
    ])
  })

  it('names only the exceeded resources', () => {
    const d = checkQuotas(
      pods,
      nsPod('p', {
        requests: { cpu: '600m', memory: '1Gi' },
        limits: { cpu: '600m', memory: '1Gi' },
      }),
      [
        quota(
          'compute',
          { 'requests.cpu': '1', 'requests.memory': '4Gi', pods: '10' },
          { 'requests.cpu': '500m', 'requests.memory': '1Gi', pods: '1' },
        ),
      ],
      now,
    )
    expect(d).toEqual({
      ok: false,
      message:
        'exceeded quota: compute, requested: requests.cpu=600m, used: requests.cpu=500m, limited: requests.cpu=1',
    })
  })

  it('demands cpu and memory on every container when the quota limits them', () => {
    const d = checkQuotas(
      pods,
      nsPod('p'),
      [
        quota(
          'compute',
          { 'limits.memory': '1Gi', 'requests.cpu': '1' },
          { 'limits.memory': '0', 'requests.cpu': '0' },
        ),
      ],
      now,
    )
    expect(d).toEqual({
      ok: false,
      message: 'failed quota: compute: must specify limits.memory for: app; requests.cpu for: app',
    })
  })

  it('refuses while the quota usage is not yet known', () => {
    const d = checkQuotas(
      pods,
      nsPod('p'),
      [{ ...quota('q', { pods: '2' }, undefined), status: { hard: { pods: '2' } } }],
      now,
    )
    expect(d).toEqual({ ok: false, message: 'status unknown for quota: q, resources: pods' })
  })

  it('ignores a quota whose status.hard is not yet written', () => {
    expect(checkQuotas(pods, nsPod('p'), [quota('q', { pods: '0' }, undefined)], now)).toEqual({
      ok: true,
      charges: [],
    })
  })

  it('applies scoped quotas only to the pods in scope', () => {
    const bestEffortOnly = quota('be', { pods: '0' }, { pods: '0' }, { scopes: ['BestEffort'] })
    expect(
      checkQuotas(pods, nsPod('p', { requests: { cpu: '1' } }), [bestEffortOnly], now).ok,
    ).toBe(true)
    expect(checkQuotas(pods, nsPod('p'), [bestEffortOnly], now).ok).toBe(false)
    expect(
      checkQuotas(
        { group: '', plural: 'configmaps' },
        { metadata: { name: 'c' } },
        [
          {
            ...bestEffortOnly,
            spec: { hard: { configmaps: '0' }, scopes: ['BestEffort'] },
            status: { hard: { configmaps: '0' }, used: { configmaps: '0' } },
          },
        ],
        now,
      ).ok,
    ).toBe(true)
  })

  it('counts configmaps by both names', () => {
    const d = checkQuotas(
      { group: '', plural: 'configmaps' },
      { metadata: { name: 'c' } },
      [
        quota(
          'objects',
          { configmaps: '1', 'count/configmaps': '5' },
          { configmaps: '1', 'count/configmaps': '1' },
        ),
      ],
      now,
    )
    expect(d).toEqual({
      ok: false,
      message:
        'exceeded quota: objects, requested: configmaps=1, used: configmaps=1, limited: configmaps=1',
    })
  })
})

describe('ResourceQuota validation', () => {
  it('refuses negative and fractional counts and unknown scopes', () => {
    const causes = validateResourceQuota({
      metadata: { name: 'q' },
      spec: { hard: { pods: '1.5', 'requests.cpu': '-1' }, scopes: ['Sometimes'] },
    })
    expect(causes.map((c) => `${c.field}: ${c.message}`)).toEqual([
      'spec.hard[pods]: must be an integer',
      'spec.hard[requests.cpu]: must be greater than or equal to 0',
      'spec.scopes: supported values: "BestEffort", "CrossNamespacePodAffinity", "NotBestEffort", "NotTerminating", "PriorityClass", "Terminating"',
    ])
  })
})
