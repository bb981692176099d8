import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import { MemoryCache, T0, drive } from '../../../fixtures/memory-cache'
import { flowcontrolController } from '../../../../src/controllers/flowcontrol'
import { flowSchemas, priorityLevels } from '../../../../src/controllers/flowcontrol/keys'
import { ensurePlan } from '../../../../src/apis/flowcontrol/ensure'
import { flowSchemaPrinter, priorityLevelPrinter } from '../../../../src/printers/flowcontrol'
import { buildTable } from '../../../../src/printers/table'

const controller = flowcontrolController()
const annotation = 'apf.kubernetes.io/autoupdate-spec'

/** A cluster whose controller has run to rest. */
async function settled(cache = new MemoryCache()): Promise<MemoryCache> {
  await drive(controller, cache, T0)
  return cache
}

const conditionOf = (type: string) => (o: KubeObject | undefined) =>
  (o?.status as any)?.conditions?.find((c: any) => c.type === type)
const dangling = conditionOf('Dangling')
const enforced = conditionOf('Enforced')
const notEnforced = {
  status: 'False',
  reason: 'NotEnforced',
  message:
    'This server does not classify, queue or shed requests by API Priority and Fairness: this object is stored and validated only',
  lastTransitionTime: expect.any(String),
}

describe('the priority-and-fairness controller: bootstrap configuration', () => {
  it('creates upstream’s mandatory and suggested objects, each marked auto-updated', async () => {
    const cache = await settled()
    expect(cache.names(flowSchemas)).toEqual([
      'catch-all',
      'endpoint-controller',
      'exempt',
      'global-default',
      'kube-controller-manager',
      'kube-scheduler',
      'kube-system-service-accounts',
      'probes',
      'service-accounts',
      'system-leader-election',
      'system-node-high',
      'system-nodes',
      'workload-leader-election',
    ])
    expect(cache.names(priorityLevels)).toEqual([
      'catch-all',
      'exempt',
      'global-default',
      'leader-election',
      'node-high',
      'system',
      'workload-high',
      'workload-low',
    ])
    for (const o of [...cache.list(flowSchemas), ...cache.list(priorityLevels)])
      expect(o.metadata.annotations?.[annotation], o.metadata.name).toBe('true')
    expect(cache.get(priorityLevels, undefined, 'workload-low')!.spec).toEqual({
      type: 'Limited',
      limited: {
        nominalConcurrencyShares: 100,
        lendablePercent: 90,
        limitResponse: {
          type: 'Queue',
          queuing: { queues: 128, handSize: 6, queueLengthLimit: 50 },
        },
      },
    })
  })

  it('re-creates a deleted object, mandatory or suggested', async () => {
    const cache = await settled()
    cache.remove(flowSchemas, undefined, 'catch-all')
    cache.remove(priorityLevels, undefined, 'workload-low')
    await drive(controller, cache, T0)
    expect(cache.get(flowSchemas, undefined, 'catch-all')).toBeDefined()
    expect(cache.get(priorityLevels, undefined, 'workload-low')).toBeDefined()
  })

  it('keeps an administrator’s change to a suggested object and turns its auto-update off', async () => {
    const cache = await settled()
    const low = cache.get(priorityLevels, undefined, 'workload-low')!
    const { [annotation]: _gone, ...others } = low.metadata.annotations!
    cache.write(priorityLevels, {
      ...low,
      metadata: { ...low.metadata, annotations: others },
      spec: {
        type: 'Limited',
        limited: { nominalConcurrencyShares: 7, limitResponse: { type: 'Reject' } },
      },
    })
    await drive(controller, cache, T0)
    const after = cache.get(priorityLevels, undefined, 'workload-low')!
    expect((after.spec as any).limited.nominalConcurrencyShares).toBe(7)
    expect(after.metadata.annotations?.[annotation]).toBe('false')
  })

  it('puts back the spec of a suggested object whose annotation asks for it', async () => {
    const cache = await settled()
    const fs = cache.get(flowSchemas, undefined, 'probes')!
    cache.write(flowSchemas, { ...fs, spec: { ...(fs.spec as object), matchingPrecedence: 3 } })
    expect(cache.get(flowSchemas, undefined, 'probes')!.metadata.generation).toBe(2)
    await drive(controller, cache, T0)
    expect((cache.get(flowSchemas, undefined, 'probes')!.spec as any).matchingPrecedence).toBe(2)
  })

  it('deletes an object marked auto-updated that is no bootstrap object, and leaves unmarked ones', () => {
    const stale = {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'FlowSchema',
      metadata: { name: 'old-default', uid: 'u', annotations: { [annotation]: 'true' } },
      spec: {},
    }
    expect(ensurePlan('FlowSchema', 'old-default', stale)).toEqual({ type: 'delete' })
    expect(
      ensurePlan('FlowSchema', 'mine', { ...stale, metadata: { name: 'mine' } }),
    ).toBeUndefined()
    expect(
      ensurePlan('FlowSchema', 'mine', {
        ...stale,
        metadata: { name: 'mine', annotations: { [annotation]: 'false' } },
      }),
    ).toBeUndefined()
  })

  it('leaves the exempt level’s tunable exempt block alone', async () => {
    const cache = await settled()
    const exempt = cache.get(priorityLevels, undefined, 'exempt')!
    cache.write(priorityLevels, {
      ...exempt,
      spec: { type: 'Exempt', exempt: { nominalConcurrencyShares: 5, lendablePercent: 10 } },
    })
    await drive(controller, cache, T0)
    expect(cache.get(priorityLevels, undefined, 'exempt')!.spec).toEqual({
      type: 'Exempt',
      exempt: { nominalConcurrencyShares: 5, lendablePercent: 10 },
    })
  })
})

describe('the priority-and-fairness controller: Dangling', () => {
  it('marks each FlowSchema Dangling=False when its level exists and True when it does not, and follows the level', async () => {
    const cache = await settled()
    expect(dangling(cache.get(flowSchemas, undefined, 'global-default'))).toMatchObject({
      status: 'False',
      reason: 'Found',
      message:
        'This FlowSchema references the PriorityLevelConfiguration object named "global-default" and it exists',
    })
    cache.write(flowSchemas, {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'FlowSchema',
      metadata: { name: 'batch' },
      spec: { priorityLevelConfiguration: { name: 'batch' }, rules: [] },
    })
    await drive(controller, cache, T0 + 1000)
    const missing = dangling(cache.get(flowSchemas, undefined, 'batch'))
    expect(missing).toMatchObject({
      status: 'True',
      reason: 'NotFound',
      message:
        'This FlowSchema references the PriorityLevelConfiguration object named "batch" but there is no such object',
    })
    expect(missing.lastTransitionTime).toBeDefined()

    cache.write(priorityLevels, {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'PriorityLevelConfiguration',
      metadata: { name: 'batch' },
      spec: { type: 'Limited', limited: { limitResponse: { type: 'Reject' } } },
    })
    expect(
      controller.watches.keysFor(
        priorityLevels,
        cache.get(priorityLevels, undefined, 'batch')!,
        cache,
      ),
    ).toEqual(['prioritylevelconfigurations/batch', 'flowschemas/batch'])
    await drive(controller, cache, T0 + 2000)
    expect(dangling(cache.get(flowSchemas, undefined, 'batch'))).toMatchObject({
      status: 'False',
      reason: 'Found',
    })
  })
})

describe('the priority-and-fairness controller: Enforced', () => {
  it('says on every FlowSchema and PriorityLevelConfiguration that it is not enforced, beside Dangling', async () => {
    const cache = await settled()
    for (const o of [...cache.list(flowSchemas), ...cache.list(priorityLevels)])
      expect(enforced(o), o.metadata.name).toEqual({ type: 'Enforced', ...notEnforced })
    expect(
      (cache.get(flowSchemas, undefined, 'probes')!.status as any).conditions.map(
        (c: any) => c.type,
      ),
    ).toEqual(['Dangling', 'Enforced'])
    expect(
      (cache.get(priorityLevels, undefined, 'exempt')!.status as any).conditions.map(
        (c: any) => c.type,
      ),
    ).toEqual(['Enforced'])
  })

  it('puts the condition back when a status write drops or changes it, and keeps the other conditions', async () => {
    const cache = await settled()
    cache.write(priorityLevels, {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'PriorityLevelConfiguration',
      metadata: { name: 'batch' },
      spec: { type: 'Limited', limited: { limitResponse: { type: 'Reject' } } },
      status: { conditions: [{ type: 'Custom', status: 'True' }] },
    })
    const fs = cache.get(flowSchemas, undefined, 'global-default')!
    const lied = (fs.status as any).conditions.map((c: any) =>
      c.type === 'Enforced' ? { ...c, status: 'True', reason: 'Enforced' } : c,
    )
    cache.write(flowSchemas, { ...fs, status: { conditions: lied } })
    await drive(controller, cache, T0 + 1000)
    const level = cache.get(priorityLevels, undefined, 'batch')!
    expect((level.status as any).conditions).toEqual([
      { type: 'Custom', status: 'True' },
      { type: 'Enforced', ...notEnforced },
    ])
    expect(enforced(cache.get(flowSchemas, undefined, 'global-default'))).toEqual({
      type: 'Enforced',
      ...notEnforced,
    })
    expect(dangling(cache.get(flowSchemas, undefined, 'global-default'))).toMatchObject({
      status: 'False',
      reason: 'Found',
    })
  })
})

describe('flowcontrol tables', () => {
  it('lists FlowSchemas by matching precedence with upstream’s columns, and levels with theirs', async () => {
    const cache = await settled()
    const fsTable = buildTable(cache.list(flowSchemas), {
      group: 'flowcontrol.apiserver.k8s.io',
      resource: 'flowschemas',
      now: T0,
    })
    expect(fsTable.columnDefinitions!.map((c) => c.name)).toEqual([
      'Name',
      'PriorityLevel',
      'MatchingPrecedence',
      'DistinguisherMethod',
      'Age',
      'MissingPL',
    ])
    expect(fsTable.rows.map((r) => r.cells[0])).toEqual([
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
    expect(fsTable.rows[0]!.cells.slice(0, 4)).toEqual(['exempt', 'exempt', 1, '<none>'])
    expect(fsTable.rows[0]!.cells[5]).toBe('False')
    expect(
      flowSchemaPrinter.cells(
        {
          apiVersion: 'v1',
          kind: 'FlowSchema',
          metadata: { name: 'new' },
          spec: {
            priorityLevelConfiguration: { name: 'x' },
            matchingPrecedence: 5,
            distinguisherMethod: { type: 'ByUser' },
          },
        },
        T0,
      ),
    ).toEqual(['new', 'x', 5, 'ByUser', '<unknown>', '?'])
    const cells = (name: string) =>
      priorityLevelPrinter.cells(cache.get(priorityLevels, undefined, name)!, T0).slice(0, 6)
    expect(cells('exempt')).toEqual(['exempt', 'Exempt', '<none>', '<none>', '<none>', '<none>'])
    expect(cells('catch-all')).toEqual(['catch-all', 'Limited', 5, '<none>', '<none>', '<none>'])
    expect(cells('leader-election')).toEqual(['leader-election', 'Limited', 10, 16, 4, 50])
  })
})
