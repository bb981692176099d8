import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../src/apimachinery/types'
import {
  admitPodPriority,
  globalDefaultRefusal,
  systemPriorityClasses,
  validatePriorityClass,
} from '../../../src/apis/priority-class'
import { admitPodRuntimeClass, validateRuntimeClass } from '../../../src/apis/runtime-class'
import { runtimeClassFor } from '../../../src/api/bootstrap/classes'
import { podManifest } from '../../helpers'

const pc = (name: string, value: number, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'scheduling.k8s.io/v1',
  kind: 'PriorityClass',
  metadata: { name },
  value,
  ...extra,
})
const podWith = (spec: Record<string, unknown> = {}): KubeObject =>
  podManifest('p', { containers: [{ name: 'c' }], spec })
const lookupIn = (classes: KubeObject[]) => (name: string) =>
  classes.find((c) => c.metadata.name === name)

describe('Priority admission', () => {
  const classes = [
    pc('high', 1000, { preemptionPolicy: 'PreemptLowerPriority' }),
    pc('batch', 10, { preemptionPolicy: 'Never' }),
    ...systemPriorityClasses,
  ]

  it('sets priority and preemptionPolicy from the named class', () => {
    const p = podWith({ priorityClassName: 'batch' })
    expect(admitPodPriority(p, lookupIn(classes), classes)).toEqual({ ok: true })
    expect(p.spec).toMatchObject({ priority: 10, preemptionPolicy: 'Never' })
    const critical = podWith({ priorityClassName: 'system-node-critical' })
    admitPodPriority(critical, lookupIn(classes), classes)
    expect((critical.spec as { priority: number }).priority).toBe(2000001000)
  })

  it('refuses an unknown class and a hand-set priority that disagrees', () => {
    expect(
      admitPodPriority(podWith({ priorityClassName: 'nope' }), lookupIn(classes), classes),
    ).toEqual({ ok: false, reason: 'no PriorityClass with name nope was found' })
    expect(
      admitPodPriority(
        podWith({ priorityClassName: 'high', priority: 5 }),
        lookupIn(classes),
        classes,
      ),
    ).toEqual({
      ok: false,
      reason:
        'the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name',
    })
    expect(
      admitPodPriority(
        podWith({ priorityClassName: 'high', priority: 1000 }),
        lookupIn(classes),
        classes,
      ),
    ).toEqual({ ok: true })
  })

  it('applies the global default, else priority 0', () => {
    const withDefault = [...classes, pc('dflt', 7, { globalDefault: true })]
    const p = podWith()
    admitPodPriority(p, lookupIn(withDefault), withDefault)
    expect(p.spec).toMatchObject({ priorityClassName: 'dflt', priority: 7 })
    const q = podWith()
    admitPodPriority(q, lookupIn(classes), classes)
    expect(q.spec).toMatchObject({ priority: 0, preemptionPolicy: 'PreemptLowerPriority' })
    expect((q.spec as { priorityClassName?: string }).priorityClassName).toBeUndefined()
  })

  it('allows one global default only', () => {
    const existing = [pc('dflt', 7, { globalDefault: true })]
    expect(globalDefaultRefusal(pc('other', 1, { globalDefault: true }), existing, 'create')).toBe(
      'PriorityClass dflt is already marked as default. Only one default can exist',
    )
    expect(
      globalDefaultRefusal(pc('dflt', 7, { globalDefault: true }), existing, 'update'),
    ).toBeUndefined()
  })

  it('validates values and reserved names', () => {
    expect(validatePriorityClass(pc('huge', 1_000_000_001)).map((c) => c.message)).toEqual([
      'maximum allowed value of a user defined priority is 1000000000',
    ])
    expect(validatePriorityClass(pc('system-mine', 1)).map((c) => c.message)).toEqual([
      "priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class",
    ])
    expect(validatePriorityClass(systemPriorityClasses[0]!)).toEqual([])
  })
})

describe('RuntimeClass admission', () => {
  const sim = {
    ...runtimeClassFor('sim'),
    overhead: { podFixed: { cpu: '100m' } },
    scheduling: {
      nodeSelector: { 'edgeplane.io/runtime': 'sim' },
      tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoSchedule' }],
    },
  }

  it('copies overhead, merges the node selector and tolerations', () => {
    const p = podWith({ runtimeClassName: 'sim', nodeSelector: { zone: 'a' } })
    expect(admitPodRuntimeClass(p, sim)).toEqual({ ok: true })
    expect(p.spec).toMatchObject({
      overhead: { cpu: '100m' },
      nodeSelector: { zone: 'a', 'edgeplane.io/runtime': 'sim' },
      tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoSchedule' }],
    })
  })

  it('refuses an unknown class, a conflicting selector and a foreign overhead', () => {
    expect(admitPodRuntimeClass(podWith({ runtimeClassName: 'gvisor' }), undefined)).toEqual({
      ok: false,
      reason: 'pod rejected: RuntimeClass "gvisor" not found',
    })
    expect(
      admitPodRuntimeClass(
        podWith({ runtimeClassName: 'sim', nodeSelector: { 'edgeplane.io/runtime': 'process' } }),
        sim,
      ),
    ).toEqual({
      ok: false,
      reason:
        'conflict: runtimeClass.scheduling.nodeSelector[edgeplane.io/runtime] = sim; pod.spec.nodeSelector[edgeplane.io/runtime] = process',
    })
    expect(
      admitPodRuntimeClass(podWith({ runtimeClassName: 'sim', overhead: { cpu: '1' } }), sim).ok,
    ).toBe(false)
    expect(admitPodRuntimeClass(podWith({ overhead: { cpu: '1' } }), undefined)).toEqual({
      ok: false,
      reason: 'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead',
    })
    expect(
      admitPodRuntimeClass(podWith({ runtimeClassName: 'sim', overhead: { cpu: '0.1' } }), sim),
    ).toEqual({ ok: true })
  })

  it('validates the handler', () => {
    expect(validateRuntimeClass(runtimeClassFor('process'))).toEqual([])
    expect(
      validateRuntimeClass({ ...runtimeClassFor('x'), handler: 'Not_A_Label' }).map((c) => c.field),
    ).toEqual(['handler'])
  })
})
