import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import { decideEviction, evictionRefusal } from '../../../../src/apis/policy/eviction'
import { newPod } from '../../../helpers'

const now = Date.parse('2025-06-01T12:00:00Z')

/** A pod of app=web, Ready or not. */
const webPod = (name: string, ready = true, phase = 'Running'): KubeObject =>
  newPod(name, {
    namespace: 'ns',
    status: { phase, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  })

function pdb(
  name: string,
  status: Record<string, unknown>,
  spec: Record<string, unknown> = {},
): KubeObject {
  return {
    metadata: { name, namespace: 'ns', generation: 1 },
    spec: { selector: { matchLabels: { app: 'web' } }, minAvailable: 1, ...spec },
    status: { observedGeneration: 1, ...status },
  }
}

describe('eviction under a PodDisruptionBudget', () => {
  it('refuses with 429 while no disruption is allowed', () => {
    const d = decideEviction(
      webPod('a'),
      [
        pdb('web', {
          disruptionsAllowed: 0,
          currentHealthy: 1,
          desiredHealthy: 1,
          expectedPods: 1,
        }),
      ],
      now,
    )
    expect(d.type).toBe('refuse')
    if (d.type !== 'refuse') return
    expect(d.status).toMatchObject({
      code: 429,
      reason: 'TooManyRequests',
      message: evictionRefusal,
      details: {
        causes: [
          {
            reason: 'DisruptionBudget',
            message: 'The disruption budget web needs 1 healthy pods and has 1 currently',
          },
        ],
      },
    })
  })

  it('charges an allowed disruption to the budget', () => {
    const d = decideEviction(
      webPod('a'),
      [
        pdb('web', {
          disruptionsAllowed: 1,
          currentHealthy: 2,
          desiredHealthy: 1,
          expectedPods: 2,
        }),
      ],
      now,
    )
    expect(d.type).toBe('charge')
    if (d.type !== 'charge') return
    expect(d.status).toMatchObject({
      disruptionsAllowed: 0,
      disruptedPods: { a: '2025-06-01T12:00:00Z' },
      conditions: [{ type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods' }],
    })
  })

  it('waits for the controller to observe a changed budget', () => {
    const budget = pdb('web', { disruptionsAllowed: 1 })
    budget.metadata.generation = 2
    const d = decideEviction(webPod('a'), [budget], now)
    expect(d).toMatchObject({
      type: 'refuse',
      status: {
        code: 429,
        details: {
          retryAfterSeconds: 10,
          causes: [
            { message: 'The disruption budget web is still being processed by the server.' },
          ],
        },
      },
    })
  })

  it('lets pending pods, uncovered pods and unready pods of a healthy budget go', () => {
    const blocked = pdb('web', { disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1 })
    expect(decideEviction(webPod('a', false, 'Pending'), [blocked], now).type).toBe('delete')
    expect(
      decideEviction(
        { ...webPod('a'), metadata: { name: 'a', labels: { app: 'other' } } },
        [blocked],
        now,
      ).type,
    ).toBe('delete')
    expect(decideEviction(webPod('a', false), [blocked], now).type).toBe('delete')
    expect(
      decideEviction(
        webPod('a', false),
        [pdb('web', { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 1 })],
        now,
      ).type,
    ).toBe('refuse')
    expect(
      decideEviction(
        webPod('a', false),
        [
          pdb(
            'web',
            { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 1 },
            { unhealthyPodEvictionPolicy: 'AlwaysAllow' },
          ),
        ],
        now,
      ).type,
    ).toBe('delete')
  })

  it('refuses a pod covered by two budgets', () => {
    const d = decideEviction(
      webPod('a'),
      [pdb('one', { disruptionsAllowed: 1 }), pdb('two', { disruptionsAllowed: 1 })],
      now,
    )
    expect(d).toMatchObject({
      type: 'refuse',
      status: {
        code: 500,
        message:
          'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
      },
    })
  })
})
