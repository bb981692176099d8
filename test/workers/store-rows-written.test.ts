import { describe, expect, it } from 'vitest'
import { api } from './helpers'
import { rowsWrittenBy } from './rows-written'
// A renewTime ahead: the lease's deadline lies ahead, so no alarm runs meanwhile.
import { renewedIn } from './lease-log'

const leases = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases'

function lease(name: string, renewTime: string) {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name },
    spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime },
  }
}

describe('rows written', () => {
  it('by a node lease renewal, as a PUT and as a PATCH', async () => {
    await api('POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'kube-node-lease' },
    })
    const made = await api('POST', leases, lease('rows-n1', renewedIn(0)))
    expect(made.status).toBe(201)
    let current = made.json
    const put = await rowsWrittenBy('coordination.k8s.io/leases', async () => {
      const res = await api('PUT', `${leases}/rows-n1`, {
        ...current,
        spec: { ...current.spec, renewTime: renewedIn(10) },
      })
      expect(res.status).toBe(200)
      current = res.json
    })
    const patchRenewal = (s: number) =>
      rowsWrittenBy('coordination.k8s.io/leases', async () => {
        const res = await api(
          'PATCH',
          `${leases}/rows-n1`,
          { spec: { renewTime: renewedIn(s) } },
          'application/merge-patch+json',
        )
        expect(res.status).toBe(200)
      })
    // The first update adds its log row, the next makes that row lag, and each one after writes the Lease's row alone.
    const patch = await patchRenewal(20)
    const next = await patchRenewal(30)
    console.log(`rows written per lease renewal: PUT ${put}, PATCH ${patch}, then ${next}`)
    expect(put).toBe(2)
    expect(patch).toBeLessThanOrEqual(4)
    expect(next).toBe(1)
  })

  it('by a pod create', async () => {
    await api('POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'rows' },
    })
    // A pod bound to a node: the store then keeps its node index, which a create also writes.
    await api('POST', '/api/v1/namespaces/rows/pods', {
      ...pod('first'),
      spec: { ...pod('first').spec, nodeName: 'rows-node' },
    })
    const rows = await rowsWrittenBy('core/pods', async () => {
      const res = await api('POST', '/api/v1/namespaces/rows/pods', pod('counted'))
      expect(res.status).toBe(201)
    })
    console.log(`rows written per pod create: ${rows}`)
    expect(rows).toBeLessThanOrEqual(8)
  })
})

function pod(name: string) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: { containers: [{ name: 'c', image: 'busybox' }] },
  }
}
