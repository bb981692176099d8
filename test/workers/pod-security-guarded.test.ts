import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:test'
import type { KubeObject } from '../../src/apimachinery/types'
import type { StoreResult } from '../../src/apimachinery/status'
import type { ApplyWriteOptions, WriteResult } from '../../src/apis/store-options'
import { findResource } from '../../src/apis/registry'
import { storeFor } from '../../src/store-client/stores'
import { withPodSecurity } from '../../src/admission/pod-security/admit'
import { api } from './helpers'
import { podManifest } from '../helpers'

// Pod Security judges an update (or an apply) on the object it would store and writes only that
// version: a pod of the same name created between the judgement and the write is judged in turn.

const def = findResource('', 'v1', 'pods')!
const namespace = 'psa-race'
const t = { def, namespace, name: 'racer' }
const spec = (image: string, securityContext?: Record<string, unknown>) => ({
  containers: [{ name: 'c', image, ...(securityContext ? { securityContext } : {}) }],
})
const podOf = (s: Record<string, unknown>): KubeObject => ({
  ...podManifest('racer', { namespace }),
  spec: s,
})

describe('an apply that would create a pod, raced by a create of that pod', () => {
  it('is judged again as the update it has become, and refused: the privileged pod stays as it was', async () => {
    const ns = {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: namespace, labels: { 'pod-security.kubernetes.io/enforce': 'baseline' } },
    }
    expect((await api('POST', '/api/v1/namespaces', ns)).status).toBe(201)
    const store = storeFor(env, def)
    const config = podOf(spec('busybox:2'))
    let raced = false
    const write = async (step: {
      dryRun?: boolean
      admission?: { resourceVersion?: string }
    }): Promise<StoreResult<WriteResult>> => {
      const opts: ApplyWriteOptions = {
        fieldManager: 'test',
        force: true,
        dryRun: step.dryRun,
        admission: step.admission,
      }
      const res = await store.patch(t, 'apply', config, undefined, opts)
      if (step.dryRun && !raced) {
        // After the apply's first computation (a create of a compliant pod), a privileged pod of its name is stored unjudged.
        raced = true
        const landed = await store.create(t, podOf(spec('busybox:1', { privileged: true })), {})
        expect(landed.ok).toBe(true)
      }
      return res
    }
    const call = {
      env,
      def,
      user: { username: 'alice', groups: ['system:authenticated'] },
      t,
      subresource: undefined,
      op: 'update' as const,
      dryRun: false,
    }
    const res = await withPodSecurity(call, write)({})
    expect(raced).toBe(true)
    expect(res.ok).toBe(false)
    expect(!res.ok && res.status).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      message:
        'pods "racer" is forbidden: violates PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)',
    })
    const stored = (await api('GET', `/api/v1/namespaces/${namespace}/pods/racer`)).json
    expect(stored.spec.containers[0].image).toBe('busybox:1')
  })
})
