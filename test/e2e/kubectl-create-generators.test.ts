import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { kubectl, kubectlJson } from './helpers/kubectl'
import { startServer, type TestServer } from './helpers/server'

// kubectl's create generators send protobuf bodies with no JSON fallback.
describe('kubectl create generators (protobuf bodies)', () => {
  let server: TestServer
  const create = async (args: string[]) => {
    const res = await kubectl(['create', ...args], { kubeconfig: server.kubeconfig })
    if (res.code !== 0)
      throw new Error(`kubectl create ${args.join(' ')} exited ${res.code}: ${res.stderr}`)
    return res.stdout.trim()
  }
  const get = (kind: string, name: string) =>
    kubectlJson(['get', kind, name, '-o', 'json'], { kubeconfig: server.kubeconfig })

  beforeAll(async () => {
    server = await startServer()
  })
  afterAll(async () => {
    await server?.dispose()
  })

  it('creates a namespace', async () => {
    expect(await create(['namespace', 'x'])).toBe('namespace/x created')
    expect((await get('namespace', 'x')).metadata.name).toBe('x')
  })

  it('creates a configmap and a secret', async () => {
    expect(await create(['configmap', 'c', '--from-literal=a=b'])).toBe('configmap/c created')
    expect((await get('configmap', 'c')).data).toEqual({ a: 'b' })
    expect(await create(['secret', 'generic', 's', '--from-literal=k=v'])).toBe('secret/s created')
    const secret = await get('secret', 's')
    expect(secret.data).toEqual({ k: Buffer.from('v').toString('base64') })
  })

  it('creates a deployment', async () => {
    expect(await create(['deployment', 'd', '--image=nginx', '--replicas=2'])).toBe(
      'deployment.apps/d created',
    )
    const d = await get('deployment', 'd')
    expect(d.spec.replicas).toBe(2)
    expect(d.spec.selector).toEqual({ matchLabels: { app: 'd' } })
    expect(d.spec.template.metadata.labels).toEqual({ app: 'd' })
    expect(d.spec.template.spec.containers[0]).toMatchObject({ name: 'nginx', image: 'nginx' })
  })

  it('creates a job and a cronjob', async () => {
    expect(await create(['job', 'j', '--image=busybox', '--', 'echo', 'hi'])).toBe(
      'job.batch/j created',
    )
    const j = await get('job', 'j')
    expect(j.spec.template.spec.containers[0]).toMatchObject({
      name: 'j',
      image: 'busybox',
      command: ['echo', 'hi'],
    })
    expect(j.spec.template.spec.restartPolicy).toBe('Never')
    expect(await create(['cronjob', 'cj', '--image=busybox', '--schedule=*/5 * * * *'])).toBe(
      'cronjob.batch/cj created',
    )
    const cj = await get('cronjob', 'cj')
    expect(cj.spec.schedule).toBe('*/5 * * * *')
    expect(cj.spec.jobTemplate.spec.template.spec.containers[0]).toMatchObject({
      name: 'cj',
      image: 'busybox',
    })
    expect(cj.spec.jobTemplate.spec.template.spec.restartPolicy).toBe('OnFailure')
  })

  it('creates a service account and a cluster IP service', async () => {
    expect(await create(['serviceaccount', 'sa'])).toBe('serviceaccount/sa created')
    expect((await get('serviceaccount', 'sa')).metadata.name).toBe('sa')
    expect(await create(['service', 'clusterip', 'svc', '--tcp=80:8080'])).toBe(
      'service/svc created',
    )
    const svc = await get('service', 'svc')
    expect(svc.spec.type).toBe('ClusterIP')
    expect(svc.spec.selector).toEqual({ app: 'svc' })
    expect(svc.spec.ports).toEqual([
      expect.objectContaining({ name: '80-8080', protocol: 'TCP', port: 80, targetPort: 8080 }),
    ])
  })
})
