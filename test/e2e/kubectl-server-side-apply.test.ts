import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { kubectlJson, kubectlOn } from './helpers/kubectl'
import { deployment } from './helpers/manifests'
import { startServer, type TestServer } from './helpers/server'

// `kubectl apply --server-side` against one server: create, conflicts, forced takeover, managed
// fields and removal of fields the applier stops applying. The steps share one object and run in order.
describe('kubectl apply --server-side', () => {
  let server: TestServer
  const { run, ok } = kubectlOn(() => server.kubeconfig)
  const get = (args: string[] = []) =>
    kubectlJson(['get', 'deploy', 'ssa', ...args], { kubeconfig: server.kubeconfig })
  const manifest = (opts: Parameters<typeof deployment>[1]) =>
    JSON.stringify(deployment('ssa', opts))

  beforeAll(async () => {
    server = await startServer()
  })

  afterAll(async () => {
    await server?.dispose()
  })

  it('creates the object', async () => {
    const res = await ok(
      ['apply', '--server-side', '-f', '-'],
      manifest({ replicas: 2, extraLabels: { tier: 'front' } }),
    )
    expect(res.stdout).toBe('deployment.apps/ssa serverside-applied\n')
    const live = await get()
    expect(live.spec.replicas).toBe(2)
    expect(live.metadata.labels).toEqual({ app: 'ssa', tier: 'front' })
    // kubectl hides managed fields unless asked.
    expect(live.metadata.managedFields).toBeUndefined()
  })

  it('re-applying the same manifest changes nothing', async () => {
    const before = await get()
    await ok(
      ['apply', '--server-side', '-f', '-'],
      manifest({ replicas: 2, extraLabels: { tier: 'front' } }),
    )
    const after = await get()
    expect(after.metadata.generation).toBe(before.metadata.generation)
    expect(after.spec).toEqual(before.spec)
  })

  it('another manager changing spec.replicas conflicts', async () => {
    const res = await run(
      ['apply', '--server-side', '--field-manager=other', '-f', '-'],
      manifest({ replicas: 3 }),
    )
    expect(res.code).toBe(1)
    expect(res.stderr).toContain(
      'Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas',
    )
    expect(res.stderr).toContain('--force-conflicts')
    expect((await get()).spec.replicas).toBe(2)
  })

  it('--force-conflicts takes the field over', async () => {
    const res = await ok(
      ['apply', '--server-side', '--field-manager=other', '--force-conflicts', '-f', '-'],
      manifest({ replicas: 3 }),
    )
    expect(res.stdout).toBe('deployment.apps/ssa serverside-applied\n')
    expect((await get()).spec.replicas).toBe(3)
  })

  it('--show-managed-fields shows both managers', async () => {
    const live = await get(['--show-managed-fields'])
    const entries = live.metadata.managedFields as {
      manager: string
      operation: string
      fieldsV1: any
    }[]
    expect(entries.map((e) => `${e.manager}/${e.operation}`).sort()).toEqual([
      'kubectl/Apply',
      'other/Apply',
    ])
    expect(entries.find((e) => e.manager === 'other')!.fieldsV1['f:spec']['f:replicas']).toEqual({})
    expect(
      entries.find((e) => e.manager === 'kubectl')!.fieldsV1['f:spec']['f:replicas'],
    ).toBeUndefined()
    const yaml = await ok(['get', 'deploy', 'ssa', '-o', 'yaml', '--show-managed-fields'])
    expect(yaml.stdout).toContain('manager: other')
    expect((await ok(['get', 'deploy', 'ssa', '-o', 'yaml'])).stdout).not.toContain('managedFields')
    const applied = await ok(
      ['apply', '--server-side', '--show-managed-fields', '-o', 'json', '-f', '-'],
      manifest({ extraLabels: { tier: 'front' } }).replace('"replicas":2,', ''),
    )
    expect(JSON.parse(applied.stdout).metadata.managedFields).toHaveLength(2)
  })

  it('a field removed from the manifest is removed from the object', async () => {
    const without = JSON.parse(manifest({}))
    delete without.spec.replicas
    await ok(['apply', '--server-side', '-f', '-'], JSON.stringify(without))
    const live = await get()
    expect(live.metadata.labels).toEqual({ app: 'ssa' })
    // spec.replicas belongs to "other" now, so it stays.
    expect(live.spec.replicas).toBe(3)
  })
})
