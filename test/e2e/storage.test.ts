import { existsSync, readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { kubectl, kubectlJson } from './helpers/kubectl'
import { startServer, type TestServer } from './helpers/server'
import { startAgent, type AgentProcess } from './helpers/node-agent'
import { waitFor } from './helpers/wait'

let server: TestServer
let agent: AgentProcess
async function run(args: string[], stdin?: string): Promise<string> {
  const res = await kubectl(args, { kubeconfig: server.kubeconfig, stdin })
  if (res.code !== 0) throw new Error(res.stderr.trim())
  return res.stdout
}
const json = (args: string[]) => kubectlJson(args, { kubeconfig: server.kubeconfig })
const apply = (obj: unknown) => run(['apply', '-f', '-'], JSON.stringify(obj))

/** The claim once it is Bound. */
async function boundClaim(name: string, timeoutMs: number) {
  return waitFor(
    async () => {
      const c = await json(['get', 'pvc', name, '-o', 'json'])
      return c.status?.phase === 'Bound' ? c : undefined
    },
    { what: `claim ${name} Bound`, timeoutMs },
  )
}

beforeAll(async () => {
  server = await startServer()
  agent = startAgent(server.kubeconfig, [
    '--name',
    'disk',
    '--runtime',
    'process',
    '--lease-seconds',
    '1',
  ])
  await waitFor(
    async () =>
      (await json(['get', 'nodes', '-o', 'json'])).items.some((n: any) =>
        n.status?.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True'),
      ),
    {
      what: 'a Ready node',
      timeoutMs: 30_000,
    },
  )
})

afterAll(async () => {
  await agent?.stop()
  await server?.dispose()
})

describe('storage', () => {
  it('serves the default edgeplane-local-path StorageClass as kubectl shows it', async () => {
    const out = await run(['get', 'storageclass'])
    expect(out).toMatch(
      /NAME\s+PROVISIONER\s+RECLAIMPOLICY\s+VOLUMEBINDINGMODE\s+ALLOWVOLUMEEXPANSION\s+AGE/,
    )
    expect(out).toMatch(
      /edgeplane-local-path \(default\)\s+edgeplane\.io\/local-path\s+Delete\s+WaitForFirstConsumer\s+false/,
    )
    const resources = await run(['api-resources', '--namespaced=false'])
    expect(resources).toMatch(/persistentvolumes\s+pv\s+v1\s+false\s+PersistentVolume/)
    expect(resources).toMatch(/storageclasses\s+sc\s+storage\.k8s\.io\/v1\s+false\s+StorageClass/)
    expect(resources).toMatch(/csidrivers\s+storage\.k8s\.io\/v1\s+false\s+CSIDriver/)
    expect(await run(['explain', 'pv.spec.local.path'])).toContain(
      'path of the full path to the volume on the node',
    )
    expect(await run(['explain', 'storageclass.volumeBindingMode'])).toMatch(
      /FIELD: volumeBindingMode <string>\s+ENUM:\s+Immediate\s+WaitForFirstConsumer/,
    )
  })

  it('gives a StatefulSet Bound claims on a process node whose files outlive the pod', async () => {
    await apply({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'store' },
      spec: {
        replicas: 1,
        serviceName: 'store',
        selector: { matchLabels: { app: 'store' } },
        template: {
          metadata: { labels: { app: 'store' } },
          spec: {
            terminationGracePeriodSeconds: 1,
            containers: [
              {
                name: 'main',
                image: 'busybox',
                command: [
                  'sh',
                  '-c',
                  '[ -f data/first ] || echo "$HOSTNAME-$(date +%s%N)" > data/first; cat data/first > seen; exec sleep 3600',
                ],
                volumeMounts: [{ name: 'data', mountPath: '/data' }],
              },
            ],
          },
        },
        volumeClaimTemplates: [
          {
            metadata: { name: 'data' },
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
          },
        ],
      },
    })
    const claim = await boundClaim('data-store-0', 60_000)
    expect(claim.spec.storageClassName).toBe('edgeplane-local-path')
    expect(claim.metadata.annotations['volume.kubernetes.io/selected-node']).toBe('disk')
    expect(claim.status.capacity.storage).toBe('1Gi')
    const pv = await json(['get', 'pv', claim.spec.volumeName, '-o', 'json'])
    expect(pv.status.phase).toBe('Bound')
    expect(pv.spec.claimRef).toMatchObject({
      namespace: 'default',
      name: 'data-store-0',
      uid: claim.metadata.uid,
    })
    expect(pv.spec.persistentVolumeReclaimPolicy).toBe('Delete')
    expect(pv.metadata.labels['edgeplane.io/local-path-node']).toBe('disk')
    expect(pv.spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].values).toEqual([
      'disk',
    ])
    const dir: string = pv.spec.local.path
    expect(dir.startsWith(agent.stateDir)).toBe(true)
    const pvTable = await run(['get', 'pv'])
    expect(pvTable).toMatch(
      new RegExp(
        `${pv.metadata.name}\\s+1Gi\\s+RWO\\s+Delete\\s+Bound\\s+default/data-store-0\\s+edgeplane-local-path\\s+<unset>`,
      ),
    )
    expect(await run(['get', 'pvc'])).toMatch(
      new RegExp(
        `data-store-0\\s+Bound\\s+${pv.metadata.name}\\s+1Gi\\s+RWO\\s+edgeplane-local-path`,
      ),
    )

    const first = await waitFor(
      async () =>
        existsSync(`${dir}/first`) ? readFileSync(`${dir}/first`, 'utf8').trim() : undefined,
      { what: 'the file written into the volume', timeoutMs: 30_000 },
    )
    const pod = await json(['get', 'pod', 'store-0', '-o', 'json'])
    expect(pod.spec.nodeName).toBe('disk')
    // Not --wait: the StatefulSet recreates store-0 at once, and kubectl's wait (a GET, then an
    // informer on the name) can list the new pod and then wait forever for a deletion it will not see.
    await run(['delete', 'pod', 'store-0', '--wait=false'])
    const replacement = await waitFor(
      async () => {
        const p = await json(['get', 'pod', 'store-0', '-o', 'json']).catch(() => undefined)
        return p && p.metadata.uid !== pod.metadata.uid && p.status?.phase === 'Running'
          ? p
          : undefined
      },
      { what: 'a replacement store-0 Running', timeoutMs: 60_000 },
    )
    // The replacement found the first pod's file and kept it.
    expect(readFileSync(`${dir}/first`, 'utf8').trim()).toBe(first)
    const seen = `${agent.stateDir}/pods/${replacement.metadata.uid}/seen`
    await waitFor(async () => existsSync(seen) && readFileSync(seen, 'utf8').trim() === first, {
      what: 'the replacement reading the file',
      timeoutMs: 30_000,
    })

    // Deleting the claim releases its volume; the Delete policy removes the volume.
    await run(['delete', 'statefulset', 'store', '--wait=true'])
    await run(['delete', 'pvc', 'data-store-0'])
    await waitFor(
      async () => !(await run(['get', 'pv', '-o', 'name'])).includes(pv.metadata.name),
      { what: 'the provisioned volume deleted', timeoutMs: 30_000 },
    )
    expect(existsSync(dir)).toBe(false)
  })

  it('waits for a consumer, and keeps the directory of a volume switched to Retain', async () => {
    await apply({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'kept' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10Mi' } } },
    })
    await waitFor(
      async () =>
        (await run(['describe', 'pvc', 'kept'])).includes(
          'waiting for first consumer to be created before binding',
        ),
      { what: 'the WaitForFirstConsumer event', timeoutMs: 20_000 },
    )
    expect((await json(['get', 'pvc', 'kept', '-o', 'json'])).status.phase).toBe('Pending')
    await apply({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'keeper' },
      spec: {
        terminationGracePeriodSeconds: 1,
        volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'kept' } }],
        containers: [
          {
            name: 'main',
            image: 'busybox',
            command: ['sh', '-c', 'echo kept > vol/sub/file; exec sleep 3600'],
            volumeMounts: [{ name: 'v', mountPath: '/vol' }],
          },
        ],
        initContainers: [
          {
            name: 'prep',
            image: 'busybox',
            command: ['mkdir', '-p', 'vol/sub'],
            volumeMounts: [{ name: 'v', mountPath: '/vol' }],
          },
        ],
      },
    })
    const volumeName = await waitFor(
      async () => (await json(['get', 'pvc', 'kept', '-o', 'json'])).spec.volumeName,
      { what: 'claim kept bound', timeoutMs: 30_000 },
    )
    const dir = (await json(['get', 'pv', volumeName, '-o', 'json'])).spec.local.path
    await waitFor(() => existsSync(`${dir}/sub/file`), {
      what: 'the file in the volume',
      timeoutMs: 30_000,
    })
    await run([
      'patch',
      'pv',
      volumeName,
      '-p',
      '{"spec":{"persistentVolumeReclaimPolicy":"Retain"}}',
    ])
    await run(['delete', 'pod', 'keeper', '--wait=true'])
    await run(['delete', 'pvc', 'kept'])
    await waitFor(
      async () =>
        (await json(['get', 'pv', volumeName, '-o', 'json'])).status?.phase === 'Released',
      { what: 'the volume Released', timeoutMs: 20_000 },
    )
    await run(['delete', 'pv', volumeName, '--wait=true', '--timeout=30s'])
    expect(readFileSync(`${dir}/sub/file`, 'utf8')).toBe('kept\n')
  })

  it('binds a static PersistentVolume to a matching claim and releases it with Retain', async () => {
    const labels = { tier: 'static' }
    await apply({
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'small', labels },
      spec: {
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteOnce'],
        storageClassName: 'manual',
        hostPath: { path: `${agent.stateDir}/static-small` },
      },
    })
    await apply({
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'large', labels },
      spec: {
        capacity: { storage: '5Gi' },
        accessModes: ['ReadWriteOnce', 'ReadOnlyMany'],
        storageClassName: 'manual',
        hostPath: { path: `${agent.stateDir}/static-large` },
      },
    })
    await waitFor(
      async () => (await json(['get', 'pv', 'small', '-o', 'json'])).status?.phase === 'Available',
      { what: 'pv small Available', timeoutMs: 20_000 },
    )
    // Too big for small: the smallest volume that fits, chosen by size and selector.
    await apply({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'want' },
      spec: {
        storageClassName: 'manual',
        accessModes: ['ReadWriteOnce'],
        selector: { matchLabels: labels },
        resources: { requests: { storage: '2Gi' } },
      },
    })
    const bound = await boundClaim('want', 30_000)
    expect(bound.spec.volumeName).toBe('large')
    expect(bound.status.capacity.storage).toBe('5Gi')
    expect(bound.status.accessModes).toEqual(['ReadWriteOnce', 'ReadOnlyMany'])
    expect((await json(['get', 'pv', 'large', '-o', 'json'])).status.phase).toBe('Bound')
    expect((await json(['get', 'pv', 'small', '-o', 'json'])).status.phase).toBe('Available')

    // No volume matches a claim asking for more than any has.
    await apply({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'huge' },
      spec: {
        storageClassName: 'manual',
        accessModes: ['ReadWriteOnce'],
        resources: { requests: { storage: '50Gi' } },
      },
    })
    await waitFor(
      async () =>
        (await run(['get', 'events', '--field-selector', 'involvedObject.name=huge'])).includes(
          'ProvisioningFailed',
        ),
      { what: 'an event on claim huge', timeoutMs: 20_000 },
    )
    expect((await json(['get', 'pvc', 'huge', '-o', 'json'])).status.phase).toBe('Pending')

    await run(['delete', 'pvc', 'want'])
    await waitFor(
      async () => (await json(['get', 'pv', 'large', '-o', 'json'])).status?.phase === 'Released',
      { what: 'pv large Released', timeoutMs: 20_000 },
    )
    expect(
      (await json(['get', 'pv', 'large', '-o', 'json'])).spec.persistentVolumeReclaimPolicy,
    ).toBe('Retain')
  })

  it('refuses an invalid PersistentVolume with the fields named', async () => {
    const err = await run(
      ['create', '-f', '-'],
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'PersistentVolume',
        metadata: { name: 'bad' },
        spec: { capacity: { storage: '1Gi' } },
      }),
    ).catch((e: Error) => e.message)
    expect(err).toContain('PersistentVolume "bad" is invalid')
    expect(err).toContain('spec.accessModes: Required value: must specify at least 1 access mode')
    expect(err).toContain('spec: Required value: must specify a volume type')
  })
})
