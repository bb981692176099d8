import { describe, expect, it } from 'vitest'
import { podReferences } from '../../../src/apis/pod-references'
import { forbiddenNodeLabels, isKubeletLabel } from '../../../src/apis/node-restriction'
import { attributesOf } from '../../../src/api/authorization/attributes'
import { parseLabels, UsageError } from '../../../src/agent/args'

describe('pod references (the Node authorizer graph)', () => {
  it('names every secret, configmap and claim of containers, volumes and pull secrets, once each', () => {
    const refs = podReferences({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'n' },
      spec: {
        imagePullSecrets: [{ name: 'pull' }, {}],
        ephemeralContainers: [
          {
            name: 'debug',
            env: [{ name: 'X', valueFrom: { secretKeyRef: { name: 'eph', key: 'k' } } }],
          },
        ],
        containers: [
          {
            name: 'c',
            env: [
              { name: 'A', value: 'plain' },
              { name: 'B', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
            ],
            envFrom: [{ secretRef: { name: 'pull' } }],
          },
        ],
        volumes: [
          { name: 'csi', csi: { driver: 'd', nodePublishSecretRef: { name: 'csi-secret' } } },
          { name: 'rbd', rbd: { monitors: [], image: 'i', secretRef: { name: 'rbd-secret' } } },
          { name: 'az', azureFile: { secretName: 'az-secret', shareName: 's' } },
          { name: 'scratch', ephemeral: { volumeClaimTemplate: { spec: {} } } },
          { name: 'empty', emptyDir: {} },
        ],
      },
    })
    expect(refs).toEqual([
      { resource: 'secrets', name: 'pull' },
      { resource: 'secrets', name: 'eph' },
      { resource: 'secrets', name: 'csi-secret' },
      { resource: 'secrets', name: 'rbd-secret' },
      { resource: 'secrets', name: 'az-secret' },
      { resource: 'persistentvolumeclaims', name: 'p-scratch' },
    ])
  })

  it('tolerates a malformed spec', () => {
    expect(
      podReferences({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {},
        spec: { containers: 'x', volumes: [null, 3, { secret: 'y' }] } as never,
      }),
    ).toEqual([])
  })
})

describe('NodeRestriction labels', () => {
  it("allow the kubelet's labels and any outside kubernetes.io and k8s.io", () => {
    for (const key of [
      'kubernetes.io/hostname',
      'kubernetes.io/os',
      'beta.kubernetes.io/arch',
      'failure-domain.beta.kubernetes.io/zone',
      'topology.kubernetes.io/region',
      'node.kubernetes.io/instance-type',
      'node.kubernetes.io/anything',
      'a.kubelet.kubernetes.io/b',
      'team',
      'example.com/x',
    ]) {
      expect([key, forbiddenNodeLabels({ [key]: 'v' }, undefined)]).toEqual([key, []])
    }
    expect(isKubeletLabel('kubernetes.io/role')).toBe(false)
  })

  it('refuse node-restriction labels and other kubernetes.io and k8s.io ones, added, changed or removed', () => {
    expect(
      forbiddenNodeLabels(
        {
          'node-role.kubernetes.io/master': '',
          'x.k8s.io/y': '1',
          'k8s.io/z': '2',
          'node-restriction.kubernetes.io/a': 'b',
          ok: '1',
        },
        undefined,
      ),
    ).toEqual([
      'k8s.io/z',
      'node-restriction.kubernetes.io/a',
      'node-role.kubernetes.io/master',
      'x.k8s.io/y',
    ])
    expect(
      forbiddenNodeLabels(
        { 'a.node-restriction.kubernetes.io/p': '2' },
        { 'a.node-restriction.kubernetes.io/p': '1' },
      ),
    ).toEqual(['a.node-restriction.kubernetes.io/p'])
    expect(forbiddenNodeLabels({}, { 'kubernetes.io/role': 'x' })).toEqual(['kubernetes.io/role'])
    expect(
      forbiddenNodeLabels(
        { 'kubernetes.io/role': 'x', a: '2' },
        { 'kubernetes.io/role': 'x', a: '1' },
      ),
    ).toEqual([])
  })

  it('are checked by the agent before it registers, as kubelet checks --node-labels', () => {
    expect(parseLabels('kubernetes.io/hostname=h,topology.kubernetes.io/zone=z,team=a')).toEqual({
      'kubernetes.io/hostname': 'h',
      'topology.kubernetes.io/zone': 'z',
      team: 'a',
    })
    expect(() => parseLabels('node-role.kubernetes.io/worker=')).toThrow(UsageError)
    expect(() => parseLabels('node-restriction.kubernetes.io/pool=a')).toThrow(
      /unknown 'kubernetes.io' or 'k8s.io' labels specified with --labels: node-restriction.kubernetes.io\/pool/,
    )
  })
})

describe('request attributes', () => {
  const attrs = (method: string, path: string) =>
    attributesOf(new Request(`https://h${path}`, { method }))
  it('name the object a list or watch pins with metadata.name, as RequestInfo does', () => {
    expect(
      attrs('GET', '/api/v1/namespaces/n/secrets?fieldSelector=metadata.name%3Ddb'),
    ).toMatchObject({ verb: 'list', name: 'db', fieldSelector: 'metadata.name=db' })
    expect(
      attrs(
        'GET',
        '/api/v1/namespaces/n/secrets?watch=1&fieldSelector=metadata.name%3D%3Ddb,type%3Dx',
      ),
    ).toMatchObject({ verb: 'watch', name: 'db' })
    for (const path of [
      '/api/v1/namespaces/n/secrets?fieldSelector=metadata.name%21%3Ddb',
      '/api/v1/namespaces/n/secrets?fieldSelector=metadata.name%3D..',
      '/api/v1/namespaces/n/secrets?fieldSelector=metadata.name%3Da%2Fb',
      '/api/v1/namespaces/n/secrets?fieldSelector=%3D%3D%3D',
    ]) {
      expect([path, (attrs('GET', path) as { name?: string }).name]).toEqual([path, undefined])
    }
    expect(
      attrs('DELETE', '/api/v1/namespaces/n/secrets?fieldSelector=metadata.name%3Ddb'),
    ).toMatchObject({ verb: 'deletecollection', fieldSelector: 'metadata.name=db' })
    expect(
      attrs('DELETE', '/api/v1/namespaces/n/secrets?fieldSelector=metadata.name%3Ddb'),
    ).not.toHaveProperty('name')
  })
})
