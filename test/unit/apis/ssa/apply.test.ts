import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import { findResource } from '../../../../src/apis/registry'
import { applyToLive, objectToCreate, type ApplyOptions } from '../../../../src/apis/ssa/apply'
import { recordUpdate } from '../../../../src/apis/ssa/track'

const deployments = findResource('apps', 'v1', 'deployments')!
const opts = (manager: string, force = false): ApplyOptions => ({
  manager,
  force,
  subresource: undefined,
  nowMs: Date.UTC(2025, 0, 1),
})

function config(
  extra: Record<string, unknown> = {},
  containers: unknown[] = [{ name: 'nginx', image: 'nginx:1' }],
): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', labels: { app: 'web' } },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers } },
      ...extra,
    },
  }
}

function applied(live: KubeObject, cfg: KubeObject, o: ApplyOptions): KubeObject {
  const r = applyToLive(deployments, live, cfg, o)
  if (!r.ok) throw new Error(JSON.stringify(r.status))
  return r.value
}

const managers = (o: KubeObject) =>
  (o.metadata.managedFields as { manager: string; operation: string }[]).map(
    (e) => `${e.manager}/${e.operation}`,
  )

describe('server-side apply', () => {
  const created = objectToCreate(deployments, config({ replicas: 2 }), opts('kubectl'))

  it('creates with one Apply entry', () => {
    expect(created.metadata.managedFields).toEqual([
      expect.objectContaining({
        manager: 'kubectl',
        operation: 'Apply',
        apiVersion: 'apps/v1',
        fieldsType: 'FieldsV1',
        time: '2025-01-01T00:00:00Z',
      }),
    ])
  })

  it('re-applying the same configuration changes nothing', () => {
    expect(
      applied(created, config({ replicas: 2 }), {
        ...opts('kubectl'),
        nowMs: Date.UTC(2026, 0, 1),
      }),
    ).toEqual(created)
  })

  it('merges list-map items by key and keeps fields it does not mention', () => {
    const live = { ...created, spec: { ...(created.spec as object), paused: false } }
    const out = applied(
      live,
      config({ replicas: 2 }, [
        { name: 'sidecar', image: 'busybox' },
        { name: 'nginx', image: 'nginx:2' },
      ]),
      opts('kubectl'),
    )
    const spec = out.spec as any
    expect(spec.template.spec.containers).toEqual([
      { name: 'nginx', image: 'nginx:2' },
      { name: 'sidecar', image: 'busybox' },
    ])
    expect(spec.paused).toBe(false)
  })

  it('removes fields the applier no longer applies, unless another manager owns them', () => {
    const out = applied(created, config(), opts('kubectl'))
    expect((out.spec as any).replicas).toBeUndefined()
    const shared = applied(created, config({ replicas: 2 }), opts('other'))
    const kept = applied(shared, config(), opts('kubectl'))
    expect((kept.spec as any).replicas).toBe(2)
  })

  it('answers 409 with one cause per conflicting field', () => {
    const r = applyToLive(deployments, created, config({ replicas: 3 }), opts('other'))
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.status).toMatchObject({
      code: 409,
      reason: 'Conflict',
      message: 'Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas',
      details: {
        causes: [
          {
            reason: 'FieldManagerConflict',
            message: 'conflict with "kubectl"',
            field: '.spec.replicas',
          },
        ],
      },
    })
  })

  it('names updaters with their version in conflicts', () => {
    const updated = recordUpdate(
      deployments,
      created,
      { ...created, spec: { ...(created.spec as object), replicas: 5 } },
      'kubectl-edit',
      undefined,
      0,
    )
    expect(managers(updated)).toEqual(['kubectl/Apply', 'kubectl-edit/Update'])
    const r = applyToLive(deployments, updated, config({ replicas: 3 }), opts('other'))
    expect(!r.ok && r.status.details?.causes?.[0]?.message).toBe(
      'conflict with "kubectl-edit" using apps/v1',
    )
  })

  it('force takes ownership from the other manager', () => {
    const out = applied(created, config({ replicas: 3 }), opts('other', true))
    expect((out.spec as any).replicas).toBe(3)
    const entries = out.metadata.managedFields as any[]
    const kubectl = entries.find((e) => e.manager === 'kubectl')
    expect(kubectl.fieldsV1['f:spec']['f:replicas']).toBeUndefined()
    expect(entries.find((e) => e.manager === 'other').fieldsV1['f:spec']['f:replicas']).toEqual({})
  })

  it('applying an equal value shares ownership without conflict', () => {
    const out = applied(created, config({ replicas: 2 }), opts('other'))
    expect(managers(out)).toEqual(['kubectl/Apply', 'other/Apply'])
  })
})

describe('update tracking', () => {
  it('records the fields a create sets and what later updates change', () => {
    const obj = recordUpdate(
      deployments,
      undefined,
      config({ replicas: 1 }),
      'kubectl-create',
      undefined,
      0,
    )
    const e = (obj.metadata.managedFields as any[])[0]
    expect(e).toMatchObject({
      manager: 'kubectl-create',
      operation: 'Update',
      time: '1970-01-01T00:00:00Z',
    })
    expect(e.fieldsV1['f:spec']['f:replicas']).toEqual({})
    const next = recordUpdate(
      deployments,
      obj,
      { ...obj, spec: { ...(obj.spec as object), replicas: 4 } },
      'kubectl-scale',
      undefined,
      0,
    )
    const byName = Object.fromEntries(
      (next.metadata.managedFields as any[]).map((x) => [x.manager, x.fieldsV1]),
    )
    expect(byName['kubectl-scale']).toEqual({ 'f:spec': { 'f:replicas': {} } })
    expect(byName['kubectl-create']['f:spec']['f:replicas']).toBeUndefined()
    expect(recordUpdate(deployments, next, next, 'x', undefined, 0)).toBe(next)
  })
})
