import { describe, expect, it } from 'vitest'
import { api } from './helpers'
import { podManifest } from '../helpers'

const ns = '/api/v1/namespaces/default'
const smp = 'application/strategic-merge-patch+json'

/** A pod with one container `app`, and these spec fields. */
const appPod = (name: string, spec: Record<string, unknown> = {}) =>
  podManifest(name, { containers: [{ name: 'app', image: 'busybox' }], spec })

const debugPatch = (container: Record<string, unknown>) => ({
  spec: {
    ephemeralContainers: [{ image: 'busybox', terminationMessagePolicy: 'File', ...container }],
  },
})

describe('pods/ephemeralcontainers', () => {
  it('is listed in discovery with get, patch and update, answering with a Pod', async () => {
    const res = await api('GET', '/api/v1')
    const sub = res.json.resources.find((r: any) => r.name === 'pods/ephemeralcontainers')
    expect(sub).toMatchObject({ kind: 'Pod', namespaced: true, verbs: ['get', 'patch', 'update'] })
  })

  it('adds an ephemeral container with the strategic merge patch kubectl debug sends, and changes nothing else', async () => {
    await api('POST', `${ns}/pods`, appPod('dbg-add'))
    const before = await api('GET', `${ns}/pods/dbg-add/ephemeralcontainers`)
    expect(before.status).toBe(200)
    expect(before.json.kind).toBe('Pod')
    const patch = {
      ...debugPatch({
        name: 'debugger',
        targetContainerName: 'app',
        command: ['sh'],
        stdin: true,
        tty: true,
      }),
      metadata: { labels: { sneaky: 'x' } },
    }
    const res = await api('PATCH', `${ns}/pods/dbg-add/ephemeralcontainers`, patch, smp)
    expect(res.status).toBe(200)
    expect(res.json.spec.ephemeralContainers).toEqual([
      expect.objectContaining({
        name: 'debugger',
        image: 'busybox',
        targetContainerName: 'app',
        command: ['sh'],
        stdin: true,
        tty: true,
        imagePullPolicy: 'Always',
        terminationMessagePath: '/dev/termination-log',
      }),
    ])
    // Only spec.ephemeralContainers is taken from a write to the subresource.
    expect(res.json.metadata.labels?.sneaky).toBeUndefined()
    expect(res.json.metadata.resourceVersion).not.toBe(before.json.metadata.resourceVersion)
    const stored = await api('GET', `${ns}/pods/dbg-add`)
    expect(stored.json.spec.ephemeralContainers[0].name).toBe('debugger')
    // A second one is added beside the first (the list merges by name, in the order kubectl sends).
    const order = {
      '$setElementOrder/ephemeralContainers': [{ name: 'debugger' }, { name: 'second' }],
    }
    const second = await api(
      'PATCH',
      `${ns}/pods/dbg-add/ephemeralcontainers`,
      { spec: { ...debugPatch({ name: 'second' }).spec, ...order } },
      smp,
    )
    expect(second.status).toBe(200)
    expect(second.json.spec.ephemeralContainers.map((c: any) => c.name)).toEqual([
      'debugger',
      'second',
    ])
  })

  it('refuses ephemeral containers on create, and their change through the pod itself', async () => {
    const created = await api(
      'POST',
      `${ns}/pods`,
      appPod('dbg-create', { ephemeralContainers: [{ name: 'd', image: 'busybox' }] }),
    )
    expect(created.status).toBe(422)
    expect(created.json.message).toContain(
      'spec.ephemeralContainers: Forbidden: cannot be set on create',
    )
    await api('POST', `${ns}/pods`, appPod('dbg-main'))
    const viaPod = await api('PATCH', `${ns}/pods/dbg-main`, debugPatch({ name: 'd' }), smp)
    expect(viaPod.status).toBe(422)
    expect(viaPod.json.message).toContain(
      'spec: Forbidden: pod updates may not change fields other than',
    )
    expect((await api('GET', `${ns}/pods/dbg-main`)).json.spec.ephemeralContainers).toBeUndefined()
  })

  it('validates ephemeral containers as upstream does', async () => {
    await api('POST', `${ns}/pods`, appPod('dbg-bad'))
    const cases: [Record<string, unknown>, string][] = [
      [
        { name: 'p', ports: [{ containerPort: 80 }] },
        'spec.ephemeralContainers[0].ports: Forbidden: cannot be set for an Ephemeral Container',
      ],
      [
        { name: 'r', resources: { limits: { cpu: '1' } } },
        'spec.ephemeralContainers[0].resources: Forbidden: cannot be set for an Ephemeral Container',
      ],
      [
        { name: 'l', readinessProbe: { exec: { command: ['true'] } } },
        'spec.ephemeralContainers[0].readinessProbe: Forbidden: cannot be set for an Ephemeral Container',
      ],
      [{ name: 'app' }, 'spec.ephemeralContainers[0].name: Duplicate value: "app"'],
      [
        { name: 't', targetContainerName: 'nope' },
        'spec.ephemeralContainers[0].targetContainerName: Not found: "nope"',
      ],
      [{ name: 'Bad_Name' }, 'spec.ephemeralContainers[0].name: Invalid value: "Bad_Name"'],
    ]
    for (const [container, message] of cases) {
      const res = await api(
        'PATCH',
        `${ns}/pods/dbg-bad/ephemeralcontainers`,
        debugPatch(container),
        smp,
      )
      expect(res.status, JSON.stringify(container)).toBe(422)
      expect(res.json.reason).toBe('Invalid')
      expect(res.json.message).toContain(message)
    }
    expect((await api('GET', `${ns}/pods/dbg-bad`)).json.spec.ephemeralContainers).toBeUndefined()
  })

  it('keeps an ephemeral container once added: it may be neither changed nor removed', async () => {
    await api('POST', `${ns}/pods`, appPod('dbg-keep'))
    const added = await api(
      'PATCH',
      `${ns}/pods/dbg-keep/ephemeralcontainers`,
      debugPatch({ name: 'debugger', command: ['sh'] }),
      smp,
    )
    expect(added.status).toBe(200)
    const changed = await api(
      'PATCH',
      `${ns}/pods/dbg-keep/ephemeralcontainers`,
      { spec: { ephemeralContainers: [{ name: 'debugger', command: ['ls'] }] } },
      smp,
    )
    expect(changed.status).toBe(422)
    expect(changed.json.message).toContain(
      'spec.ephemeralContainers[debugger]: Forbidden: existing ephemeral containers "debugger" may not be changed',
    )
    const put = { ...added.json, spec: { ...added.json.spec, ephemeralContainers: [] } }
    const removed = await api('PUT', `${ns}/pods/dbg-keep/ephemeralcontainers`, put)
    expect(removed.status).toBe(422)
    expect(removed.json.message).toContain(
      'existing ephemeral containers "debugger" may not be removed',
    )
    expect(
      await api('DELETE', `${ns}/pods/dbg-keep/ephemeralcontainers`).then((r) => r.status),
    ).toBe(405)
  })

  it('needs patch on pods/ephemeralcontainers: patch on pods is not enough', async () => {
    await api('POST', `${ns}/pods`, appPod('dbg-rbac'))
    const role = (name: string, resources: string[]) => ({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name },
      rules: [{ apiGroups: [''], resources, verbs: ['get', 'patch'] }],
    })
    const binding = (name: string, user: string) => ({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: user }],
    })
    await api(
      'POST',
      '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles',
      role('pod-patcher', ['pods']),
    )
    await api(
      'POST',
      '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings',
      binding('pod-patcher', 'pat'),
    )
    await api(
      'POST',
      '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles',
      role('debugger', ['pods', 'pods/ephemeralcontainers']),
    )
    await api(
      'POST',
      '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings',
      binding('debugger', 'dee'),
    )
    const asPat = await api(
      'PATCH',
      `${ns}/pods/dbg-rbac/ephemeralcontainers`,
      debugPatch({ name: 'd' }),
      smp,
      { 'Impersonate-User': 'pat' },
    )
    expect(asPat.status).toBe(403)
    expect(asPat.json.message).toContain(
      'cannot patch resource "pods/ephemeralcontainers" in API group "" in the namespace "default"',
    )
    const asDee = await api(
      'PATCH',
      `${ns}/pods/dbg-rbac/ephemeralcontainers`,
      debugPatch({ name: 'd' }),
      smp,
      { 'Impersonate-User': 'dee' },
    )
    expect(asDee.status).toBe(200)
  })
})
