import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { kubectl, kubectlJson } from './helpers/kubectl'
import { startServer, type TestServer } from './helpers/server'
import { startAgent, type AgentProcess } from './helpers/node-agent'
import { nodeKubeconfig, nodeToken } from './helpers/node-credentials'
import { waitFor } from './helpers/wait'

/**
 * A node's credentials, played as a compromised node would use them: it reads only what the pods
 * bound to it reference, lists only its own pods, and cannot give itself privileged labels or
 * write events about others. Its real agent still runs its pods under those rights.
 */
const ns = 'tenant'
const NODE = 'sec-node'
const AGENT_NODE = 'sec-agent'

let server: TestServer
let agent: AgentProcess | undefined
let asNodeConfig = ''
let token = ''
const admin = (args: string[], stdin?: string) =>
  kubectl(args, { kubeconfig: server.kubeconfig, stdin })
const asNode = (args: string[]) => kubectl(args, { kubeconfig: asNodeConfig })
const raw = (path: string, opts: { method?: string; body?: unknown } = {}) =>
  server.request(path, {
    token,
    method: opts.method,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    headers: opts.body === undefined ? {} : { 'content-type': 'application/json' },
  })
const json = (body: string) => JSON.parse(body)

function podUsing(name: string, nodeName: string, secret: string) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: ns },
    spec: {
      nodeName,
      containers: [
        {
          name: 'main',
          image: 'busybox',
          command: ['sleep', '3600'],
          env: [
            { name: 'PASSWORD', valueFrom: { secretKeyRef: { name: secret, key: 'password' } } },
          ],
        },
      ],
      volumes: [{ name: 'creds', secret: { secretName: secret } }],
    },
  }
}
const secret = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace: ns },
  stringData: { password: `${name}-pw` },
})

beforeAll(async () => {
  server = await startServer()
  expect((await admin(['create', 'namespace', ns])).code).toBe(0)
  const objects = [
    secret('db'),
    secret('other'),
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'settings', namespace: ns },
      data: { a: 'b' },
    },
  ]
  expect(
    (await admin(['apply', '-f', '-'], objects.map((o) => JSON.stringify(o)).join('\n'))).code,
  ).toBe(0)
  // The admin creates the Node with a label only it may set; joining then issues credentials for that Node.
  expect(
    (
      await admin(
        ['create', '-f', '-'],
        JSON.stringify({
          apiVersion: 'v1',
          kind: 'Node',
          metadata: { name: NODE, labels: { 'node-restriction.kubernetes.io/pool': 'gold' } },
        }),
      )
    ).code,
  ).toBe(0)
  token = await nodeToken(server, NODE)
  asNodeConfig = await nodeKubeconfig(server, NODE)
})

afterAll(async () => {
  await agent?.stop()
  await server?.dispose()
})

describe('a node credential', () => {
  it('cannot read a Secret no pod of the node references, list all Secrets, or watch all ConfigMaps', async () => {
    const get = await raw(`/api/v1/namespaces/${ns}/secrets/other`)
    expect(get.status).toBe(403)
    expect(json(get.body)).toMatchObject({
      kind: 'Status',
      reason: 'Forbidden',
      message: `secrets "other" is forbidden: User "system:node:${NODE}" cannot get resource "secrets" in API group "" in the namespace "${ns}": no relationship found between node '${NODE}' and this object`,
    })
    const list = await asNode(['get', 'secrets', '-A'])
    expect(list.code).not.toBe(0)
    expect(list.stderr).toContain(
      `Error from server (Forbidden): secrets is forbidden: User "system:node:${NODE}" cannot list resource "secrets" in API group "" at the cluster scope: can only read namespaced object of this type`,
    )
    expect(list.stdout).not.toContain('db')
    const inNamespace = await asNode(['get', 'secrets', '-n', ns])
    expect(inNamespace.stderr).toContain('Error from server (Forbidden)')
    const watch = await raw('/api/v1/configmaps?watch=true')
    expect(watch.status).toBe(403)
    expect(json(watch.body).message).toContain(
      'cannot watch resource "configmaps" in API group "" at the cluster scope',
    )
    const describe = await asNode(['get', 'secret', 'db', '-n', ns, '-o', 'json'])
    expect(describe.stderr).toContain(
      `no relationship found between node '${NODE}' and this object`,
    )
  })

  it('reads a Secret while a pod bound to the node references it, and not after the pod is deleted', async () => {
    expect(
      (await admin(['create', '-f', '-'], JSON.stringify(podUsing('app', NODE, 'db')))).code,
    ).toBe(0)
    const got = await kubectlJson(['get', 'secret', 'db', '-n', ns, '-o', 'json'], {
      kubeconfig: asNodeConfig,
    })
    expect(Buffer.from(got.data.password, 'base64').toString()).toBe('db-pw')
    // The kubelet's single-object watch is allowed too; the unreferenced secret stays refused.
    expect(
      (await raw(`/api/v1/namespaces/${ns}/secrets?fieldSelector=metadata.name%3Ddb`)).status,
    ).toBe(200)
    expect((await raw(`/api/v1/namespaces/${ns}/secrets/other`)).status).toBe(403)
    expect(
      (await admin(['delete', 'pod', 'app', '-n', ns, '--grace-period=0', '--force'])).code,
    ).toBe(0)
    const after = await raw(`/api/v1/namespaces/${ns}/secrets/db`)
    expect(after.status).toBe(403)
    expect(json(after.body).message).toContain(
      `no relationship found between node '${NODE}' and this object`,
    )
  })

  it('lists and watches pods only with its own spec.nodeName', async () => {
    expect(
      (
        await admin(
          ['create', '-f', '-'],
          JSON.stringify(podUsing('elsewhere', 'another-node', 'other')),
        )
      ).code,
    ).toBe(0)
    const all = await asNode(['get', 'pods', '-A'])
    expect(all.code).not.toBe(0)
    expect(all.stderr).toContain(
      `pods is forbidden: User "system:node:${NODE}" cannot list resource "pods" in API group "" at the cluster scope: can only list/watch pods with spec.nodeName field selector`,
    )
    const foreign = await asNode([
      'get',
      'pods',
      '-A',
      '--field-selector',
      'spec.nodeName=another-node',
    ])
    expect(foreign.stderr).toContain('Error from server (Forbidden)')
    const own = await asNode([
      'get',
      'pods',
      '-A',
      '--field-selector',
      `spec.nodeName=${NODE}`,
      '-o',
      'name',
    ])
    expect([own.code, own.stdout.trim()]).toEqual([0, ''])
    expect((await raw(`/api/v1/pods?watch=true`)).status).toBe(403)
    // The other node's pod does not give this node its secret.
    expect((await raw(`/api/v1/namespaces/${ns}/secrets/other`)).status).toBe(403)
  })

  it('cannot give its Node a restricted label nor take one away, and nothing is stored', async () => {
    const add = await asNode(['label', 'node', NODE, 'node-role.kubernetes.io/control-plane='])
    expect(add.code).not.toBe(0)
    expect(add.stderr).toContain(
      `nodes "${NODE}" is forbidden: is not allowed to modify labels: node-role.kubernetes.io/control-plane`,
    )
    const remove = await asNode(['label', 'node', NODE, 'node-restriction.kubernetes.io/pool-'])
    expect(remove.stderr).toContain(
      'is not allowed to modify labels: node-restriction.kubernetes.io/pool',
    )
    const labels = (
      await kubectlJson(['get', 'node', NODE, '-o', 'json'], { kubeconfig: server.kubeconfig })
    ).metadata.labels
    expect(labels).toEqual({ 'node-restriction.kubernetes.io/pool': 'gold' })
    // Its own labels, and the kubelet's, are fine.
    expect(
      (await asNode(['label', 'node', NODE, 'team=a', 'topology.kubernetes.io/zone=z1'])).code,
    ).toBe(0)
    expect(
      (await asNode(['get', 'node', NODE, '-o', 'jsonpath={.metadata.labels.team}'])).stdout,
    ).toBe('a')
    expect((await asNode(['get', 'nodes'])).stderr).toContain(
      `node '${NODE}' cannot read all nodes, only its own Node object`,
    )
  })

  it('writes events only about itself and its pods', async () => {
    const event = (name: string, involvedObject: Record<string, string>) => ({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace: ns },
      involvedObject,
      reason: 'Killing',
      message: 'Stopping container main',
      type: 'Normal',
    })
    const forged = await raw(`/api/v1/namespaces/${ns}/events`, {
      method: 'POST',
      body: event('forged', { kind: 'Pod', namespace: ns, name: 'elsewhere' }),
    })
    expect(forged.status).toBe(403)
    expect(json(forged.body).message).toBe(
      `events "forged" is forbidden: node "${NODE}" can only create events about itself or pods bound to it`,
    )
    expect((await admin(['get', 'event', 'forged', '-n', ns])).stderr).toContain('NotFound')
    expect(
      (await admin(['create', '-f', '-'], JSON.stringify(podUsing('mine', NODE, 'db')))).code,
    ).toBe(0)
    const own = await raw(`/api/v1/namespaces/${ns}/events`, {
      method: 'POST',
      body: event('own', { kind: 'Pod', namespace: ns, name: 'mine' }),
    })
    expect(own.status).toBe(201)
  })
})

describe('the node agent under node rights', () => {
  it('runs a pod whose env comes from a Secret, reading the Secret as the node', async () => {
    agent = startAgent(server.kubeconfig, [
      '--name',
      AGENT_NODE,
      '--runtime',
      'process',
      '--lease-seconds',
      '1',
    ])
    const pod = podUsing('served', AGENT_NODE, 'db')
    pod.spec.containers[0]!.command = ['sh', '-c', 'echo "password is $PASSWORD"; sleep 3600']
    expect((await admin(['create', '-f', '-'], JSON.stringify(pod))).code).toBe(0)
    const logs = await waitFor(
      async () => {
        const res = await admin(['logs', 'served', '-n', ns])
        return res.code === 0 && res.stdout.includes('password is') && res.stdout
      },
      { what: `the logs of pod served on ${AGENT_NODE}\n${agent.output()}`, timeoutMs: 30_000 },
    )
    expect(logs.trim()).toBe('password is db-pw')
    // The agent never needed more: nothing it asked for was refused.
    expect(agent.output()).not.toContain('Forbidden')
  })
})
