import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../src/apimachinery/types'
import { runAsFor } from '../../../src/agent/runtime/run-as'
import {
  EnvError,
  expandVars,
  fieldRefValue,
  resolveContainerEnv,
  resolvePodEnv,
  type ContainerSpec,
  type EnvSources,
} from '../../../src/agent/container-env'
import { newPod } from '../../helpers'

const b64 = (s: string) => Buffer.from(s).toString('base64')

const objects: Record<string, KubeObject> = {
  'cm/ns1/app': {
    metadata: { name: 'app', namespace: 'ns1' },
    data: { greeting: 'world', 'log.level': 'debug', 'bad key': 'x' },
    binaryData: { bin: b64('bytes') },
  },
  'secret/ns1/creds': {
    metadata: { name: 'creds', namespace: 'ns1' },
    data: { password: b64('s3cret'), user: b64('admin') },
  },
  'secret/ns1/plain': {
    metadata: { name: 'plain', namespace: 'ns1' },
    stringData: { token: 'abc' },
  },
}

function sources(calls: string[] = []): EnvSources {
  const get = (kind: string) => async (ns: string, name: string) => {
    calls.push(`${kind}/${ns}/${name}`)
    return objects[`${kind}/${ns}/${name}`]
  }
  return { configMap: get('cm'), secret: get('secret') }
}

/** The pod every case reads: its metadata is what the downward API resolves. */
const webPod = (containers: ContainerSpec[]): KubeObject =>
  newPod('web-1', {
    namespace: 'ns1',
    uid: 'uid-1',
    labels: { app: 'web', tier: 'front' },
    annotations: { 'example.com/owner': 'team-a' },
    nodeName: 'node-a',
    containers,
    spec: { serviceAccountName: 'builder' },
  })

const ctx = {
  podIP: '10.244.0.7',
  hostIP: '192.168.1.5',
  allocatable: { cpu: '4', memory: '16Gi' },
}

async function envOf(container: Partial<ContainerSpec>): Promise<Record<string, string>> {
  const c = { name: 'c', image: 'x', ...container } as ContainerSpec
  return resolveContainerEnv(webPod([c]), c, sources(), ctx)
}

async function errorOf(container: Partial<ContainerSpec>): Promise<string> {
  try {
    await envOf(container)
  } catch (err) {
    expect(err).toBeInstanceOf(EnvError)
    return (err as Error).message
  }
  throw new Error('expected an EnvError')
}

describe('resolveContainerEnv', () => {
  const cases: { name: string; container: Partial<ContainerSpec>; want: Record<string, string> }[] =
    [
      {
        name: 'plain values',
        container: {
          env: [
            { name: 'A', value: '1' },
            { name: 'B', value: '' },
          ],
        },
        want: { A: '1', B: '' },
      },
      {
        name: 'configMapKeyRef',
        container: {
          env: [{ name: 'G', valueFrom: { configMapKeyRef: { name: 'app', key: 'greeting' } } }],
        },
        want: { G: 'world' },
      },
      {
        name: 'configMapKeyRef reads binaryData',
        container: {
          env: [{ name: 'B', valueFrom: { configMapKeyRef: { name: 'app', key: 'bin' } } }],
        },
        want: { B: 'bytes' },
      },
      {
        name: 'secretKeyRef is base64-decoded',
        container: {
          env: [{ name: 'P', valueFrom: { secretKeyRef: { name: 'creds', key: 'password' } } }],
        },
        want: { P: 's3cret' },
      },
      {
        name: 'secretKeyRef honours a stored stringData',
        container: {
          env: [{ name: 'T', valueFrom: { secretKeyRef: { name: 'plain', key: 'token' } } }],
        },
        want: { T: 'abc' },
      },
      {
        name: 'optional missing configmap is skipped',
        container: {
          env: [
            {
              name: 'X',
              valueFrom: { configMapKeyRef: { name: 'nope', key: 'k', optional: true } },
            },
          ],
        },
        want: {},
      },
      {
        name: 'optional missing key is skipped',
        container: {
          env: [
            {
              name: 'X',
              valueFrom: { secretKeyRef: { name: 'creds', key: 'nope', optional: true } },
            },
          ],
        },
        want: {},
      },
      {
        name: 'fieldRef paths',
        container: {
          env: [
            { name: 'NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
            { name: 'NS', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
            { name: 'UID', valueFrom: { fieldRef: { fieldPath: 'metadata.uid' } } },
            { name: 'APP', valueFrom: { fieldRef: { fieldPath: "metadata.labels['app']" } } },
            {
              name: 'OWNER',
              valueFrom: { fieldRef: { fieldPath: "metadata.annotations['example.com/owner']" } },
            },
            {
              name: 'MISSING',
              valueFrom: { fieldRef: { fieldPath: "metadata.labels['missing']" } },
            },
            { name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
            { name: 'SA', valueFrom: { fieldRef: { fieldPath: 'spec.serviceAccountName' } } },
            { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
            { name: 'HOST_IP', valueFrom: { fieldRef: { fieldPath: 'status.hostIP' } } },
          ],
        },
        want: {
          NAME: 'web-1',
          NS: 'ns1',
          UID: 'uid-1',
          APP: 'web',
          OWNER: 'team-a',
          MISSING: '',
          NODE: 'node-a',
          SA: 'builder',
          POD_IP: '10.244.0.7',
          HOST_IP: '192.168.1.5',
        },
      },
      {
        name: 'envFrom configMap skips keys that are not variable names',
        container: { envFrom: [{ configMapRef: { name: 'app' } }] },
        want: { greeting: 'world', 'log.level': 'debug', bin: 'bytes' },
      },
      {
        name: 'envFrom secret with a prefix',
        container: { envFrom: [{ secretRef: { name: 'creds' }, prefix: 'DB_' }] },
        want: { DB_password: 's3cret', DB_user: 'admin' },
      },
      {
        name: 'envFrom optional missing source',
        container: { envFrom: [{ configMapRef: { name: 'nope', optional: true } }] },
        want: {},
      },
      {
        name: 'env overrides envFrom',
        container: {
          envFrom: [{ configMapRef: { name: 'app' } }],
          env: [{ name: 'greeting', value: 'override' }],
        },
        want: { greeting: 'override', 'log.level': 'debug', bin: 'bytes' },
      },
      {
        name: '$(VAR) refers to earlier variables only',
        container: {
          env: [
            { name: 'A', value: 'x' },
            { name: 'B', value: '$(A)-$(C)-$$(A)' },
            { name: 'C', value: 'later' },
          ],
        },
        want: { A: 'x', B: 'x-$(C)-$(A)', C: 'later' },
      },
      {
        name: 'resourceFieldRef reads limits, else node allocatable',
        container: {
          resources: { limits: { memory: '256Mi' }, requests: { cpu: '250m' } },
          env: [
            {
              name: 'MEM',
              valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1Mi' } },
            },
            {
              name: 'CPU_REQ_M',
              valueFrom: { resourceFieldRef: { resource: 'requests.cpu', divisor: '1m' } },
            },
            { name: 'CPU_LIMIT', valueFrom: { resourceFieldRef: { resource: 'limits.cpu' } } },
          ],
        },
        want: { MEM: '256', CPU_REQ_M: '250', CPU_LIMIT: '4' },
      },
      {
        name: 'resourceFieldRef rounds up after dividing, as the kubelet does',
        container: {
          resources: {
            limits: { memory: '1e3', cpu: '0.5' },
            requests: { cpu: '1001m', memory: '1Ki' },
          },
          env: [
            {
              name: 'MEM_K',
              valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1k' } },
            },
            { name: 'CPU', valueFrom: { resourceFieldRef: { resource: 'limits.cpu' } } },
            { name: 'CPU_REQ', valueFrom: { resourceFieldRef: { resource: 'requests.cpu' } } },
            { name: 'MEM_REQ', valueFrom: { resourceFieldRef: { resource: 'requests.memory' } } },
          ],
        },
        want: { MEM_K: '1', CPU: '1', CPU_REQ: '2', MEM_REQ: '1024' },
      },
    ]
  for (const c of cases) {
    it(c.name, async () => {
      expect(await envOf(c.container)).toEqual(c.want)
    })
  }

  const errors: { name: string; container: Partial<ContainerSpec>; message: string }[] = [
    {
      name: 'missing configmap',
      container: {
        env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'nope', key: 'k' } } }],
      },
      message: 'configmap "nope" not found',
    },
    {
      name: 'missing configmap key',
      container: {
        env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'app', key: 'nope' } } }],
      },
      message: "couldn't find key nope in ConfigMap ns1/app",
    },
    {
      name: 'missing secret',
      container: { env: [{ name: 'X', valueFrom: { secretKeyRef: { name: 'nope', key: 'k' } } }] },
      message: 'secret "nope" not found',
    },
    {
      name: 'missing secret key',
      container: {
        env: [{ name: 'X', valueFrom: { secretKeyRef: { name: 'creds', key: 'nope' } } }],
      },
      message: "couldn't find key nope in Secret ns1/creds",
    },
    {
      name: 'missing envFrom configmap',
      container: { envFrom: [{ configMapRef: { name: 'nope' } }] },
      message: 'configmap "nope" not found',
    },
    {
      name: 'missing envFrom secret',
      container: { envFrom: [{ secretRef: { name: 'nope' } }] },
      message: 'secret "nope" not found',
    },
    {
      name: 'unsupported fieldPath',
      container: { env: [{ name: 'X', valueFrom: { fieldRef: { fieldPath: 'spec.hostname' } } }] },
      message: 'unsupported fieldPath: spec.hostname',
    },
    {
      name: 'unreadable quantity',
      container: {
        resources: { limits: { memory: 'lots' } },
        env: [{ name: 'X', valueFrom: { resourceFieldRef: { resource: 'limits.memory' } } }],
      },
      message: 'invalid quantity "lots" for limits.memory',
    },
  ]
  for (const c of errors) {
    it(`fails: ${c.name}`, async () => {
      expect(await errorOf(c.container)).toBe(c.message)
    })
  }
})

describe('resolvePodEnv', () => {
  it('resolves every container, reports failing ones, and fetches each source once', async () => {
    const calls: string[] = []
    const p = webPod([
      {
        name: 'a',
        env: [{ name: 'G', valueFrom: { configMapKeyRef: { name: 'app', key: 'greeting' } } }],
      },
      { name: 'b', envFrom: [{ configMapRef: { name: 'app' } }] },
      { name: 'c', env: [{ name: 'X', valueFrom: { secretKeyRef: { name: 'nope', key: 'k' } } }] },
    ])
    ;(p.spec as { initContainers: ContainerSpec[] }).initContainers = [
      { name: 'init', env: [{ name: 'I', value: '1' }] },
    ]
    const { env, errors } = await resolvePodEnv(p, sources(calls), ctx)
    expect(env).toEqual({
      init: { I: '1' },
      a: { G: 'world' },
      b: { greeting: 'world', 'log.level': 'debug', bin: 'bytes' },
    })
    expect(errors).toEqual({ c: 'secret "nope" not found' })
    expect(calls).toEqual(['cm/ns1/app', 'secret/ns1/nope'])
  })
})

describe('expandVars', () => {
  const vars = { A: 'x', EMPTY: '' }
  const cases: [string, string][] = [
    ['$(A)', 'x'],
    ['pre-$(A)-post', 'pre-x-post'],
    ['$(EMPTY)|', '|'],
    ['$(UNDEFINED)', '$(UNDEFINED)'],
    ['$$(A)', '$(A)'],
    ['$$', '$'],
    ['$A', '$A'],
    ['$(A', '$(A'],
    ['cost: 5$', 'cost: 5$'],
  ]
  for (const [input, want] of cases) {
    it(`${JSON.stringify(input)} → ${JSON.stringify(want)}`, () => {
      expect(expandVars(input, vars)).toBe(want)
    })
  }
})

describe('fieldRefValue', () => {
  it('renders whole label maps as sorted key="value" lines', () => {
    expect(fieldRefValue(webPod([]), 'metadata.labels', ctx)).toBe('app="web"\ntier="front"')
  })
})

describe('service environment variables', () => {
  const svc = (
    namespace: string,
    name: string,
    clusterIP: string,
    ports: { name?: string; port: number; protocol?: string }[],
  ): KubeObject => ({
    metadata: { name, namespace },
    spec: { clusterIP, ports },
  })
  const services: Record<string, KubeObject[]> = {
    ns1: [
      svc('ns1', 'web-api', '10.96.0.20', [
        { name: 'http', port: 80 },
        { name: 'dns', port: 53, protocol: 'UDP' },
      ]),
      svc('ns1', 'headless', 'None', [{ port: 1 }]),
    ],
    default: [
      svc('default', 'kubernetes', '10.96.0.1', [{ name: 'https', port: 443 }]),
      svc('default', 'other', '10.96.0.30', [{ port: 8080 }]),
    ],
  }
  const withServices = (): EnvSources => ({
    ...sources(),
    services: async (ns) => services[ns] ?? [],
  })
  const podWith = (
    spec: Record<string, unknown>,
    command = {
      name: 'c',
      image: 'x',
      env: [{ name: 'URL', value: 'http://$(WEB_API_SERVICE_HOST):$(WEB_API_SERVICE_PORT)' }],
    },
  ): KubeObject => {
    const p = webPod([command as ContainerSpec])
    p.spec = { ...(p.spec as object), ...spec }
    return p
  }

  it("are kubelet's: host, ports, named ports and docker links, under the container's own", async () => {
    const { env } = await resolvePodEnv(podWith({}), withServices(), ctx)
    expect(env.c).toEqual({
      WEB_API_SERVICE_HOST: '10.96.0.20',
      WEB_API_SERVICE_PORT: '80',
      WEB_API_SERVICE_PORT_HTTP: '80',
      WEB_API_SERVICE_PORT_DNS: '53',
      WEB_API_PORT: 'tcp://10.96.0.20:80',
      WEB_API_PORT_80_TCP: 'tcp://10.96.0.20:80',
      WEB_API_PORT_80_TCP_PROTO: 'tcp',
      WEB_API_PORT_80_TCP_PORT: '80',
      WEB_API_PORT_80_TCP_ADDR: '10.96.0.20',
      WEB_API_PORT_53_UDP: 'udp://10.96.0.20:53',
      WEB_API_PORT_53_UDP_PROTO: 'udp',
      WEB_API_PORT_53_UDP_PORT: '53',
      WEB_API_PORT_53_UDP_ADDR: '10.96.0.20',
      KUBERNETES_SERVICE_HOST: '10.96.0.1',
      KUBERNETES_SERVICE_PORT: '443',
      KUBERNETES_SERVICE_PORT_HTTPS: '443',
      KUBERNETES_PORT: 'tcp://10.96.0.1:443',
      KUBERNETES_PORT_443_TCP: 'tcp://10.96.0.1:443',
      KUBERNETES_PORT_443_TCP_PROTO: 'tcp',
      KUBERNETES_PORT_443_TCP_PORT: '443',
      KUBERNETES_PORT_443_TCP_ADDR: '10.96.0.1',
      URL: 'http://10.96.0.20:80',
    })
  })

  it("with enableServiceLinks: false are only the kubernetes Service's; a container variable wins", async () => {
    const c = { name: 'c', image: 'x', env: [{ name: 'KUBERNETES_SERVICE_PORT', value: '6443' }] }
    const { env } = await resolvePodEnv(
      podWith({ enableServiceLinks: false }, c),
      withServices(),
      ctx,
    )
    expect(Object.keys(env.c!).filter((k) => k.startsWith('WEB_API'))).toEqual([])
    expect(env.c).toMatchObject({
      KUBERNETES_SERVICE_HOST: '10.96.0.1',
      KUBERNETES_SERVICE_PORT: '6443',
    })
    expect(env.c!.OTHER_SERVICE_HOST).toBeUndefined()
  })
})

describe('runAsUser', () => {
  const p = (sc: Record<string, unknown>, podSc: Record<string, unknown> = {}) => ({
    metadata: { name: 'p', namespace: 'ns', uid: 'u' },
    spec: { securityContext: podSc, containers: [] },
  })
  const c = (sc: Record<string, unknown>) => ({ name: 'c', securityContext: sc }) as ContainerSpec

  it('switches user only for a root agent, and refuses otherwise', () => {
    expect(runAsFor(p({}), c({ runAsUser: 1000 }), { uid: 0, gid: 0 })).toEqual({
      uid: 1000,
      gid: 1000,
    })
    expect(runAsFor(p({}, { runAsUser: 1000, runAsGroup: 5 }), c({}), { uid: 0, gid: 0 })).toEqual({
      uid: 1000,
      gid: 5,
    })
    expect(runAsFor(p({}), c({}), { uid: 0, gid: 0 })).toEqual({})
    expect(runAsFor(p({}), c({ runAsUser: 1001 }), { uid: 1001, gid: 1001 })).toEqual({})
    expect(runAsFor(p({}), c({ runAsUser: 1000 }), { uid: 1001, gid: 1001 })).toEqual({
      error:
        'runAsUser 1000 / runAsGroup 1000 needs the node agent to run as root; it runs as uid 1001',
    })
    expect(runAsFor(p({}), c({ runAsNonRoot: true }), { uid: 0, gid: 0 })).toEqual({
      error: 'container has runAsNonRoot and image will run as root (pod: "p_ns(u)", container: c)',
    })
    expect(runAsFor(p({}), c({ runAsNonRoot: true }), { uid: 1001, gid: 1001 })).toEqual({})
  })
})
