import { describe, expect, it } from 'vitest'
import { api } from './helpers'

const apply = 'application/apply-patch+yaml'
const base = '/apis/apps/v1/namespaces/default/deployments'

const deployment = (name: string, replicas: number) =>
  [
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    `  name: ${name}`,
    'spec:',
    `  replicas: ${replicas}`,
    '  selector: {matchLabels: {app: web}}',
    '  template:',
    '    metadata: {labels: {app: web}}',
    '    spec:',
    '      containers: [{name: web, image: "nginx:1.27"}]',
  ].join('\n')

describe('server-side apply', () => {
  it('creates a missing object (201) and records the applier', async () => {
    const res = await api(
      'PATCH',
      `${base}/ssa-create?fieldManager=kubectl&fieldValidation=Strict&force=false`,
      deployment('ssa-create', 2),
      apply,
    )
    expect(res.status).toBe(201)
    expect(res.json.metadata.managedFields).toEqual([
      expect.objectContaining({
        manager: 'kubectl',
        operation: 'Apply',
        apiVersion: 'apps/v1',
        fieldsType: 'FieldsV1',
      }),
    ])
    expect(res.json.metadata.managedFields[0].fieldsV1['f:spec']['f:replicas']).toEqual({})
    expect(res.json.metadata.uid).toBeTruthy()
  })

  it('keeps the resourceVersion when an apply changes nothing', async () => {
    const first = await api(
      'PATCH',
      `${base}/ssa-same?fieldManager=kubectl`,
      deployment('ssa-same', 2),
      apply,
    )
    const again = await api(
      'PATCH',
      `${base}/ssa-same?fieldManager=kubectl`,
      deployment('ssa-same', 2),
      apply,
    )
    expect(again.status).toBe(200)
    expect(again.json.metadata.resourceVersion).toBe(first.json.metadata.resourceVersion)
  })

  it('answers 409 FieldManagerConflict, and force takes the field over', async () => {
    await api(
      'PATCH',
      `${base}/ssa-conflict?fieldManager=kubectl`,
      deployment('ssa-conflict', 2),
      apply,
    )
    const res = await api(
      'PATCH',
      `${base}/ssa-conflict?fieldManager=other&force=false`,
      deployment('ssa-conflict', 3),
      apply,
    )
    expect(res.status).toBe(409)
    expect(res.json).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'Conflict',
      code: 409,
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
    const forced = await api(
      'PATCH',
      `${base}/ssa-conflict?fieldManager=other&force=true`,
      deployment('ssa-conflict', 3),
      apply,
    )
    expect(forced.status).toBe(200)
    expect(forced.json.spec.replicas).toBe(3)
    const owners = Object.fromEntries(
      forced.json.metadata.managedFields.map((e: any) => [e.manager, e.fieldsV1]),
    )
    expect(owners.other['f:spec']['f:replicas']).toEqual({})
    expect(owners.kubectl['f:spec']['f:replicas']).toBeUndefined()
  })

  it('persists nothing on dryRun=All', async () => {
    const res = await api(
      'PATCH',
      `${base}/ssa-dry?fieldManager=kubectl&dryRun=All`,
      deployment('ssa-dry', 1),
      apply,
    )
    expect(res.status).toBe(201)
    expect((await api('GET', `${base}/ssa-dry`)).status).toBe(404)
  })

  it('records an Update entry for a create with a field manager', async () => {
    const res = await api('POST', `${base}?fieldManager=kubectl-create`, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'ssa-post' },
      spec: {
        selector: { matchLabels: { app: 'x' } },
        template: {
          metadata: { labels: { app: 'x' } },
          spec: { containers: [{ name: 'c', image: 'i' }] },
        },
      },
    })
    expect(res.status).toBe(201)
    expect(res.json.metadata.managedFields).toEqual([
      expect.objectContaining({ manager: 'kubectl-create', operation: 'Update' }),
    ])
  })
})
