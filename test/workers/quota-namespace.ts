import { expect } from 'vitest'
import type { ControllerRunner } from '../../src/controllers/runtime/runner'
import { api } from './helpers'
import { runner } from './controller-runner'

/** A namespace, its kube-root-ca.crt ConfigMap made by its controller, and a quota whose status the quota controller has set. */
export async function namespaceWithQuota(
  namespace: string,
  hard: Record<string, string>,
  quotaController: ControllerRunner,
) {
  expect(
    (
      await api('POST', '/api/v1/namespaces', {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: namespace },
      })
    ).status,
  ).toBe(201)
  // A controller's create in the namespace before it has any quota.
  await runner('root-ca-cert-publisher').pass()
  expect(
    (await api('GET', `/api/v1/namespaces/${namespace}/configmaps/kube-root-ca.crt`)).status,
  ).toBe(200)
  expect(
    (
      await api('POST', `/api/v1/namespaces/${namespace}/resourcequotas`, {
        apiVersion: 'v1',
        kind: 'ResourceQuota',
        metadata: { name: 'q' },
        spec: { hard },
      })
    ).status,
  ).toBe(201)
  await quotaController.pass()
  const quota = (await api('GET', `/api/v1/namespaces/${namespace}/resourcequotas/q`)).json
  expect(quota.status.hard).toEqual(hard)
  return quota
}
