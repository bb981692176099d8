import { describe, expect, it } from 'vitest'
import { env, evictDurableObject, runInDurableObject } from 'cloudflare:test'
import { api } from './helpers'

const ns = 'status-validation'
const deployments = `/apis/apps/v1/namespaces/${ns}/deployments`
const store = () => env.KIND_STORE.get(env.KIND_STORE.idFromName('apps/deployments'))

const deployment = (name: string) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{ name: 'app', image: 'busybox' }] },
    },
  },
})

/** Rewrites a stored Deployment's spec.selector as an older server could have accepted it: empty. */
async function storeEmptySelector(name: string): Promise<void> {
  await runInDurableObject(store(), (_instance, state) => {
    const key = `${ns}/${name}`
    const row = state.storage.sql
      .exec<{ value: string; rv: number }>('SELECT value, rv FROM objects WHERE key = ?', key)
      .one()
    const obj = JSON.parse(row.value)
    obj.spec.selector = {}
    const value = JSON.stringify(obj)
    state.storage.sql.exec('UPDATE objects SET value = ? WHERE key = ?', value, key)
    state.storage.sql.exec('UPDATE events SET value = ? WHERE rv = ?', value, row.rv)
  })
  await evictDurableObject(store())
}

describe('status subresource validation', () => {
  it("takes a status write for a Deployment whose spec today's rules refuse, and refuses a main write naming the field", async () => {
    await api('POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: ns },
    })
    expect((await api('POST', deployments, deployment('old-selector'))).status).toBe(201)
    await storeEmptySelector('old-selector')
    const stored = await api('GET', `${deployments}/old-selector`)
    expect(stored.json.spec.selector).toEqual({})

    const status = await api('PUT', `${deployments}/old-selector/status`, {
      ...stored.json,
      status: { observedGeneration: 1, replicas: 1, updatedReplicas: 1 },
    })
    expect(status.status).toBe(200)
    expect(status.json.status).toMatchObject({
      observedGeneration: 1,
      replicas: 1,
      updatedReplicas: 1,
    })

    const patched = await api(
      'PATCH',
      `${deployments}/old-selector/status`,
      { status: { readyReplicas: 1, availableReplicas: 1 } },
      'application/merge-patch+json',
    )
    expect(patched.status).toBe(200)
    expect(patched.json.status).toMatchObject({
      replicas: 1,
      readyReplicas: 1,
      availableReplicas: 1,
    })

    const main = await api('PUT', `${deployments}/old-selector`, {
      ...patched.json,
      metadata: { ...patched.json.metadata, labels: { touched: 'yes' } },
    })
    expect(main.status).toBe(422)
    expect(main.json.details.causes.map((c: { field: string }) => c.field)).toContain(
      'spec.selector',
    )
    expect(main.json.message).toContain('empty selector is invalid for deployment')
  })

  it('drops spec changes sent to /status and keeps the stored spec', async () => {
    const created = await api('POST', deployments, deployment('spec-kept'))
    expect(created.status).toBe(201)
    const sent = {
      ...created.json,
      spec: { ...created.json.spec, replicas: 7 },
      status: { replicas: 2 },
    }
    const res = await api('PUT', `${deployments}/spec-kept/status`, sent)
    expect(res.status).toBe(200)
    expect(res.json.spec.replicas).toBe(1)
    expect(res.json.status.replicas).toBe(2)
    expect(res.json.metadata.generation).toBe(created.json.metadata.generation)
  })

  it('refuses a negative or inconsistent status count with 422 naming the field, and stores nothing', async () => {
    const created = await api('POST', deployments, deployment('bad-status'))
    expect(created.status).toBe(201)
    const negative = await api(
      'PATCH',
      `${deployments}/bad-status/status`,
      { status: { replicas: -1 } },
      'application/merge-patch+json',
    )
    expect(negative.status).toBe(422)
    expect(negative.json.reason).toBe('Invalid')
    expect(negative.json.details.causes).toContainEqual(
      expect.objectContaining({ field: 'status.replicas', reason: 'FieldValueInvalid' }),
    )
    expect(negative.json.message).toContain(
      'status.replicas: Invalid value: -1: must be greater than or equal to 0',
    )

    const over = await api(
      'PATCH',
      `${deployments}/bad-status/status`,
      { status: { replicas: 1, readyReplicas: 2 } },
      'application/merge-patch+json',
    )
    expect(over.status).toBe(422)
    expect(over.json.message).toContain(
      'status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas',
    )

    const after = await api('GET', `${deployments}/bad-status`)
    expect(after.json.metadata.resourceVersion).toBe(created.json.metadata.resourceVersion)
    expect(after.json.status?.replicas).toBeUndefined()
  })

  it('refuses a status write that lowers collisionCount', async () => {
    expect((await api('POST', deployments, deployment('collisions'))).status).toBe(201)
    expect(
      (
        await api(
          'PATCH',
          `${deployments}/collisions/status`,
          { status: { collisionCount: 2 } },
          'application/merge-patch+json',
        )
      ).status,
    ).toBe(200)
    const lowered = await api(
      'PATCH',
      `${deployments}/collisions/status`,
      { status: { collisionCount: 1 } },
      'application/merge-patch+json',
    )
    expect(lowered.status).toBe(422)
    expect(lowered.json.message).toContain(
      'status.collisionCount: Invalid value: 1: cannot be decremented',
    )
  })
})
