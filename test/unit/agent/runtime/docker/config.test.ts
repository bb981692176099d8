import { createServer } from 'node:http'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../../src/apimachinery/types'
import { pickAgentRuntime } from '../../../../../src/launcher/agent'
import {
  appConfig,
  containerName,
  hostPorts,
  infraConfig,
  pullPolicy,
  resourceConfig,
} from '../../../../../src/agent/runtime/docker/container-config'
import { Demuxer } from '../../../../../src/agent/runtime/docker/engine'
import { findSocket } from '../../../../../src/agent/runtime/docker/socket'
import { PodVolumes, VolumeError } from '../../../../../src/agent/runtime/docker/volumes'
import type { Json } from '../../../../../src/apimachinery/json-value'
import { newPod } from '../../../../helpers'

/** Pod shop/web (uid u-1) with this spec. */
const shopPod = (spec: Json): KubeObject => newPod('web', { namespace: 'shop', uid: 'u-1', spec })

describe('container create options', () => {
  it('command replaces the entrypoint and drops the image args; args alone replace only those; $(VAR) expands', () => {
    const p = shopPod({ containers: [] })
    const withCommand = appConfig(
      p,
      { name: 'c', image: 'img', command: ['sh', '-c'], args: ['echo $(GREETING)'] },
      { nodeName: 'n', infraId: 'infra', env: { GREETING: 'hi' }, binds: [], restartCount: 2 },
    )
    expect(withCommand).toMatchObject({
      name: 'k8s_c_web_shop_u-1_2',
      Entrypoint: ['sh', '-c'],
      Cmd: ['echo hi'],
      Env: ['GREETING=hi'],
    })
    expect(withCommand.HostConfig?.NetworkMode).toBe('container:infra')
    expect(withCommand.Labels).toMatchObject({
      'io.kubernetes.pod.uid': 'u-1',
      'io.kubernetes.container.name': 'c',
      'io.edgeplane.node': 'n',
      'io.kubernetes.container.restartCount': '2',
    })
    const argsOnly = appConfig(
      p,
      { name: 'c', image: 'img', args: ['-v'] },
      { nodeName: 'n', infraId: 'i', env: {}, binds: [], restartCount: 0 },
    )
    expect(argsOnly.Entrypoint).toBeUndefined()
    expect(argsOnly.Cmd).toEqual(['-v'])
  })

  it("keeps stdin open and gives a terminal when the spec asks; joins a target's process namespace", () => {
    const p = shopPod({ containers: [] })
    const plain = appConfig(
      p,
      { name: 'c', image: 'img' },
      { nodeName: 'n', infraId: 'i', env: {}, binds: [], restartCount: 0 },
    )
    expect(plain).not.toHaveProperty('Tty')
    expect(plain).not.toHaveProperty('OpenStdin')
    expect(plain.HostConfig).not.toHaveProperty('PidMode')
    const debug = appConfig(
      p,
      { name: 'dbg', image: 'img', stdin: true, stdinOnce: true, tty: true },
      { nodeName: 'n', infraId: 'i', env: {}, binds: [], restartCount: 0, pidOf: 'target-id' },
    )
    expect(debug).toMatchObject({ Tty: true, OpenStdin: true, StdinOnce: true, AttachStdin: true })
    expect(debug.HostConfig).toMatchObject({
      NetworkMode: 'container:i',
      PidMode: 'container:target-id',
    })
  })

  it('maps securityContext, workingDir and limits as the kubelet does', () => {
    const p = shopPod({ securityContext: { runAsUser: 1000, runAsGroup: 3000 }, containers: [] })
    const c = appConfig(
      p,
      {
        name: 'c',
        image: 'img',
        workingDir: '/w',
        securityContext: { readOnlyRootFilesystem: true, runAsUser: 2000 },
        resources: { limits: { cpu: '500m', memory: '64Mi' }, requests: { cpu: '250m' } },
      },
      {
        nodeName: 'n',
        infraId: 'i',
        env: {},
        binds: ['/a:/b:ro'],
        restartCount: 0,
        stopTimeout: 5,
      },
    )
    expect(c).toMatchObject({ User: '2000:3000', WorkingDir: '/w', StopTimeout: 5 })
    expect(c.HostConfig).toMatchObject({
      ReadonlyRootfs: true,
      Memory: 64 * 2 ** 20,
      NanoCpus: 500_000_000,
      CpuShares: 256,
      Binds: ['/a:/b:ro'],
    })
    expect(resourceConfig({ name: 'x' })).toEqual({})
  })

  it('puts hostPorts and the network on the infra container; hostNetwork uses the host', () => {
    const p = shopPod({
      containers: [
        {
          name: 'c',
          ports: [
            { containerPort: 80, hostPort: 8080 },
            { containerPort: 53, protocol: 'UDP', hostPort: 5353, hostIP: '127.0.0.1' },
            { containerPort: 9000 },
          ],
        },
      ],
    })
    expect(hostPorts(p)).toEqual({
      exposed: { '80/tcp': {}, '53/udp': {} },
      bindings: {
        '80/tcp': [{ HostPort: '8080' }],
        '53/udp': [{ HostPort: '5353', HostIp: '127.0.0.1' }],
      },
    })
    const infra = infraConfig(p, { image: 'pause', nodeName: 'n', network: 'edgeplane-n' })
    expect(infra).toMatchObject({
      name: containerName(p, 'POD', 0),
      Hostname: 'web',
      HostConfig: { NetworkMode: 'edgeplane-n' },
    })
    const host = infraConfig(shopPod({ hostNetwork: true, containers: [] }), {
      image: 'pause',
      nodeName: 'n',
      network: 'bridge',
    })
    expect(host.HostConfig?.NetworkMode).toBe('host')
    expect(host.Hostname).toBeUndefined()
  })

  it.each([
    ['nginx', 'Always'],
    ['nginx:latest', 'Always'],
    ['nginx:1.25', 'IfNotPresent'],
    ['localhost:5000/app', 'Always'],
    ['localhost:5000/app:v1', 'IfNotPresent'],
    ['app@sha256:abc', 'IfNotPresent'],
  ])('imagePullPolicy of %s defaults to %s', (image, want) => {
    expect(pullPolicy({ name: 'c', image })).toBe(want)
    expect(pullPolicy({ name: 'c', image, imagePullPolicy: 'Never' })).toBe('Never')
  })
})

describe('the engine stream framing', () => {
  it('splits stdout and stderr frames, across chunk boundaries', () => {
    const frame = (kind: number, text: string) =>
      Buffer.concat([Buffer.from([kind, 0, 0, 0, 0, 0, 0, text.length]), Buffer.from(text)])
    const all = Buffer.concat([frame(1, 'out\n'), frame(2, 'err\n'), frame(1, 'more')])
    const got: string[] = []
    const d = new Demuxer()
    d.push(all.subarray(0, 5), (s, c) => got.push(`${s}:${c}`))
    d.push(all.subarray(5, 17), (s, c) => got.push(`${s}:${c}`))
    d.push(all.subarray(17), (s, c) => got.push(`${s}:${c}`))
    expect(got).toEqual(['stdout:out\n', 'stderr:err\n', 'stdout:more'])
  })
})

describe('pod volumes', () => {
  const root = mkdtempSync(join(tmpdir(), 'edgeplane-volumes-'))
  afterAll(() => rmSync(root, { recursive: true, force: true }))
  const objects = new Map<string, KubeObject>()
  const get = async (path: string) => objects.get(path)
  const cm = (data: Record<string, string>): KubeObject => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'conf', namespace: 'shop' },
    data,
  })

  it('writes configMap, secret and downwardAPI files, rewrites them on change, and binds read-only', async () => {
    objects.set('/api/v1/namespaces/shop/configmaps/conf', cm({ a: '1', b: '2' }))
    objects.set('/api/v1/namespaces/shop/secrets/s', {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's' },
      data: { token: Buffer.from('t0k').toString('base64') },
    })
    const p = shopPod({
      volumes: [
        { name: 'conf', configMap: { name: 'conf' } },
        {
          name: 'sec',
          secret: { secretName: 's', items: [{ key: 'token', path: 'dir/tok', mode: 0o600 }] },
        },
        {
          name: 'info',
          downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] },
        },
        { name: 'scratch', emptyDir: {} },
      ],
      containers: [],
    })
    const v = new PodVolumes(p, join(root, 'p1'), get)
    await v.setUp()
    const dir = join(root, 'p1', 'volumes')
    expect(readFileSync(join(dir, 'conf', 'a'), 'utf8')).toBe('1')
    expect(readFileSync(join(dir, 'sec', 'dir', 'tok'), 'utf8')).toBe('t0k')
    expect(statSync(join(dir, 'sec', 'dir', 'tok')).mode & 0o777).toBe(0o600)
    expect(readFileSync(join(dir, 'info', 'labels'), 'utf8')).toBe('app="web"')
    objects.set('/api/v1/namespaces/shop/configmaps/conf', cm({ a: 'changed' }))
    await v.setUp()
    expect(readFileSync(join(dir, 'conf', 'a'), 'utf8')).toBe('changed')
    expect(() => statSync(join(dir, 'conf', 'b'))).toThrow()
    const binds = v.binds({
      name: 'c',
      volumeMounts: [
        { name: 'conf', mountPath: '/etc/conf' },
        { name: 'scratch', mountPath: '/data', subPath: 'sub' },
        { name: 'scratch', mountPath: '/ro', readOnly: true },
      ],
    })
    expect(binds).toEqual([
      `${join(dir, 'conf')}:/etc/conf:ro`,
      `${join(dir, 'scratch', 'sub')}:/data`,
      `${join(dir, 'scratch')}:/ro:ro`,
    ])
    expect(() =>
      v.binds({
        name: 'c',
        volumeMounts: [{ name: 'scratch', mountPath: '/x', subPath: '../escape' }],
      }),
    ).toThrow(/may not contain '..'/)
    v.tearDown()
    expect(() => statSync(join(root, 'p1'))).toThrow()
  })

  it('fails with the kubelet message for a missing ConfigMap, unless optional; hostPath types are checked', async () => {
    const missing = new PodVolumes(
      shopPod({ volumes: [{ name: 'conf', configMap: { name: 'nope' } }], containers: [] }),
      join(root, 'p2'),
      get,
    )
    await expect(missing.setUp()).rejects.toThrow(
      new VolumeError('MountVolume.SetUp failed for volume "conf" : configmap "nope" not found'),
    )
    await new PodVolumes(
      shopPod({
        volumes: [{ name: 'conf', configMap: { name: 'nope', optional: true } }],
        containers: [],
      }),
      join(root, 'p3'),
      get,
    ).setUp()
    const file = join(root, 'a-file')
    writeFileSync(file, 'x')
    mkdirSync(join(root, 'a-dir'))
    const hp = (path: string, type: string) =>
      new PodVolumes(
        shopPod({ volumes: [{ name: 'h', hostPath: { path, type } }], containers: [] }),
        join(root, 'p4'),
        get,
      ).setUp()
    await hp(join(root, 'a-dir'), 'Directory')
    await expect(hp(file, 'Directory')).rejects.toThrow(/is not a directory/)
    await hp(join(root, 'made', 'here'), 'DirectoryOrCreate')
    expect(statSync(join(root, 'made', 'here')).isDirectory()).toBe(true)
  })

  it('mounts a claim bound to a hostPath PersistentVolume', async () => {
    objects.set('/api/v1/namespaces/shop/persistentvolumeclaims/data', {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'data' },
      spec: { volumeName: 'pv1' },
      status: { phase: 'Bound' },
    })
    objects.set('/api/v1/persistentvolumes/pv1', {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'pv1' },
      spec: { hostPath: { path: join(root, 'pv1') } },
    })
    const v = new PodVolumes(
      shopPod({
        volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }],
        containers: [],
      }),
      join(root, 'p5'),
      get,
    )
    await v.setUp()
    expect(v.binds({ name: 'c', volumeMounts: [{ name: 'd', mountPath: '/data' }] })).toEqual([
      `${join(root, 'pv1')}:/data`,
    ])
    const unbound = new PodVolumes(
      shopPod({
        volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'other' } }],
        containers: [],
      }),
      join(root, 'p6'),
      get,
    )
    await expect(unbound.setUp()).rejects.toThrow('persistentvolumeclaim "other" not found')
  })
})

describe('finding the engine', () => {
  it('answers for a socket whose server pings back, not for a silent path; EDGEPLANE_AGENT_RUNTIME overrides', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'edgeplane-sock-'))
    const path = join(dir, 'engine.sock')
    const server = createServer((req, res) =>
      res.writeHead(req.url === '/_ping' ? 200 : 404).end('OK'),
    )
    await new Promise<void>((r) => server.listen(path, r))
    try {
      expect(await findSocket(path)).toBe(path)
      expect(await findSocket(join(dir, 'none.sock'))).toBeUndefined()
      expect(await pickAgentRuntime({ EDGEPLANE_AGENT_RUNTIME: 'process' })).toBe('process')
      await expect(pickAgentRuntime({ EDGEPLANE_AGENT_RUNTIME: 'vm' })).rejects.toThrow(
        'EDGEPLANE_AGENT_RUNTIME must be',
      )
    } finally {
      server.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
