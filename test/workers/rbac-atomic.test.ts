import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:test'
import type { KubeObject } from '../../src/apimachinery/types'
import type { UserInfo } from '../../src/apimachinery/user-info'
import { findResource } from '../../src/apis/registry'
import { storeFor } from '../../src/store-client/stores'
import { admittedStore } from '../../src/admission/webhooks/admitted-store'
import type { WriteGuard } from '../../src/admission/guarded-write'
import { escalationGuard } from '../../src/api/authorization/rbac-write'
import { api, openWatch } from './helpers'
import { landed, racedGuard } from './write-race'

// A user who may patch the ClusterRole bound to itself tries to grant itself more than it holds
// by racing two patches: one copies annotations into rules[0], the other makes those annotations
// `*` between the copy's escalation check and its write.
const rbac = 'rbac.authorization.k8s.io'
const crPath = `/apis/${rbac}/v1/clusterroles`
const def = findResource(rbac, 'v1', 'clusterroles')!
const harmless = { v: 'get', g: '', r: 'configmaps' }
const wild = { v: '*', g: '*', r: '*' }

/** The ClusterRole `name`, bound to the user `name`, letting it read configmaps and write itself. */
async function selfBoundRole(name: string): Promise<void> {
  const role = {
    apiVersion: `${rbac}/v1`,
    kind: 'ClusterRole',
    metadata: { name, annotations: harmless },
    rules: [
      { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] },
      {
        apiGroups: [rbac],
        resources: ['clusterroles'],
        verbs: ['get', 'patch', 'update', 'create'],
        resourceNames: [name],
      },
    ],
  }
  expect((await api('POST', crPath, role)).status).toBe(201)
  const binding = {
    apiVersion: `${rbac}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: rbac, kind: 'ClusterRole', name },
    subjects: [{ apiGroup: rbac, kind: 'User', name }],
  }
  expect((await api('POST', `/apis/${rbac}/v1/clusterrolebindings`, binding)).status).toBe(201)
}

/** rules[0]'s verb, group and resource replaced by the annotations' values. */
const copyAnnotations = ['verbs', 'apiGroups', 'resources'].flatMap((list, i) => [
  { op: 'remove', path: `/rules/0/${list}/0` },
  { op: 'copy', from: `/metadata/annotations/${'vgr'[i]}`, path: `/rules/0/${list}/0` },
])

const holdsWildcard = (role: KubeObject) =>
  JSON.stringify((role as { rules?: unknown }).rules ?? []).includes('"*"')
const userOf = (name: string): UserInfo => ({ username: name, groups: ['system:authenticated'] })
const target = (name: string) => ({ def, name })

describe('the escalation check is atomic with the write', () => {
  it('refuses a patch whose object changed between its check and its write, and never stores what was not checked', async () => {
    await selfBoundRole('race-json')
    const user = userOf('race-json')
    // The guard passes the harmless object, then the annotations turn `*` before the write is made.
    const guard = racedGuard(escalationGuard(env, user, def)!, () =>
      landed(
        storeFor(env, def).patch(
          target('race-json'),
          'merge',
          { metadata: { annotations: wild } },
          undefined,
          {},
        ),
      ),
    )
    const res = await admittedStore(env, def, user, guard).patch(
      target('race-json'),
      'json',
      copyAnnotations,
      undefined,
      { fieldManager: 'kubectl-patch' },
    )
    expect(res.ok).toBe(false)
    expect(!res.ok && res.status).toMatchObject({ code: 403, reason: 'Forbidden' })
    expect(!res.ok && res.status.message).toContain(
      'is attempting to grant RBAC permissions not currently held',
    )
    const stored = (await api('GET', `${crPath}/race-json`)).json
    expect(holdsWildcard(stored)).toBe(false)
    expect(stored.metadata.annotations).toEqual(wild)
  })

  it('writes the object computed again from the newer version when that one passes too', async () => {
    await selfBoundRole('race-label')
    const user = userOf('race-label')
    const check = escalationGuard(env, user, def)!
    let checks = 0
    const counted: WriteGuard = async (object, old) => {
      checks++
      return check(object, old)
    }
    const guard = racedGuard(counted, () =>
      landed(
        storeFor(env, def).patch(
          target('race-label'),
          'merge',
          { metadata: { labels: { meanwhile: 'yes' } } },
          undefined,
          {},
        ),
      ),
    )
    const res = await admittedStore(env, def, user, guard).patch(
      target('race-label'),
      'merge',
      { metadata: { labels: { mine: 'yes' } } },
      undefined,
      { fieldManager: 'kubectl-patch' },
    )
    expect(res.ok).toBe(true)
    expect(checks).toBe(2)
    const stored = (await api('GET', `${crPath}/race-label`)).json
    expect(stored.metadata.labels).toEqual({ meanwhile: 'yes', mine: 'yes' })
    expect(res.ok && JSON.parse(res.value.object).metadata.resourceVersion).toBe(
      stored.metadata.resourceVersion,
    )
  })

  it('does not let an apply that was checked as a create patch an object created in between', async () => {
    await selfBoundRole('race-apply')
    const user = userOf('race-apply')
    const name = 'race-apply-new'
    const wide = {
      apiVersion: `${rbac}/v1`,
      kind: 'ClusterRole',
      metadata: { name },
      rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }],
    }
    const guard = racedGuard(escalationGuard(env, user, def)!, () =>
      landed(storeFor(env, def).create(target(name), wide as KubeObject, {})),
    )
    const config = {
      apiVersion: `${rbac}/v1`,
      kind: 'ClusterRole',
      metadata: { name, labels: { by: 'apply' } },
    }
    const res = await admittedStore(env, def, user, guard).patch(
      target(name),
      'apply',
      config,
      undefined,
      { fieldManager: 'kubectl' },
    )
    expect(!res.ok && res.status.code).toBe(403)
    expect((await api('GET', `${crPath}/${name}`)).json.metadata.labels).toBeUndefined()
  })

  it('keeps the store from ever holding rules the user lacks while patches race over HTTP', async () => {
    await selfBoundRole('race-http')
    const as = { 'Impersonate-User': 'race-http' }
    const watch = await openWatch(`${crPath}?watch=true&fieldSelector=metadata.name%3Drace-http`)
    const annotate = (values: object) =>
      api(
        'PATCH',
        `${crPath}/race-http`,
        { metadata: { annotations: values } },
        'application/merge-patch+json',
        as,
      )
    const escalate = () =>
      api('PATCH', `${crPath}/race-http`, copyAnnotations, 'application/json-patch+json', as)
    const started = Date.now()
    const statuses = new Set<number>()
    for (let round = 0; round < 25 && Date.now() - started < 10_000; round++) {
      const answers = await Promise.all([
        escalate(),
        annotate(wild),
        escalate(),
        annotate(harmless),
        escalate(),
      ])
      for (const a of answers) statuses.add(a.status)
      if (holdsWildcard((await api('GET', `${crPath}/race-http`)).json)) break
    }
    watch.close()
    expect(
      [...statuses].every((s) => [200, 403, 409].includes(s)),
      [...statuses].join(','),
    ).toBe(true)
    expect(watch.events.length).toBeGreaterThan(1)
    expect(watch.events.filter((e) => holdsWildcard(e.object)).map((e) => e.object.rules)).toEqual(
      [],
    )
    expect(holdsWildcard((await api('GET', `${crPath}/race-http`)).json)).toBe(false)
    // The user still may make the write it holds the rules for.
    expect((await annotate(harmless)).status).toBe(200)
    const copied = await escalate()
    expect(copied.status).toBe(200)
    expect(copied.json.rules[0]).toEqual({
      apiGroups: [''],
      resources: ['configmaps'],
      verbs: ['get'],
    })
  }, 30_000)
})

describe('writes to RBAC kinds, checked as stored', () => {
  it('answer with the object stored, its managedFields as the write records them', async () => {
    await selfBoundRole('rbac-answer')
    const as = { 'Impersonate-User': 'rbac-answer' }
    const patched = await api(
      'PATCH',
      `${crPath}/rbac-answer?fieldManager=patcher`,
      { metadata: { labels: { a: '1' } } },
      'application/merge-patch+json',
      as,
    )
    expect(patched.status).toBe(200)
    const stored = (await api('GET', `${crPath}/rbac-answer`)).json
    expect(patched.json.metadata.resourceVersion).toBe(stored.metadata.resourceVersion)
    expect(
      stored.metadata.managedFields.find((m: { manager: string }) => m.manager === 'patcher'),
    ).toMatchObject({ operation: 'Update' })
    const config = {
      apiVersion: `${rbac}/v1`,
      kind: 'ClusterRole',
      metadata: { name: 'rbac-answer', labels: { b: '2' } },
    }
    const applied = await api(
      'PATCH',
      `${crPath}/rbac-answer?fieldManager=applier`,
      config,
      'application/apply-patch+yaml',
      as,
    )
    expect(applied.status).toBe(200)
    const after = (await api('GET', `${crPath}/rbac-answer`)).json
    expect(applied.json.metadata.resourceVersion).toBe(after.metadata.resourceVersion)
    expect(
      after.metadata.managedFields.find((m: { manager: string }) => m.manager === 'applier'),
    ).toMatchObject({
      operation: 'Apply',
      fieldsV1: { 'f:metadata': { 'f:labels': { 'f:b': {} } } },
    })
    const dry = await api(
      'PATCH',
      `${crPath}/rbac-answer?dryRun=All`,
      { metadata: { labels: { c: '3' } } },
      'application/merge-patch+json',
      as,
    )
    expect(dry.status).toBe(200)
    expect(dry.json.metadata.labels.c).toBe('3')
    expect((await api('GET', `${crPath}/rbac-answer`)).json.metadata.labels.c).toBeUndefined()
  })

  it('refuse an escalating create, update, patch or apply of each kind, and a binding to a role the user does not hold', async () => {
    await selfBoundRole('rbac-kinds')
    await api('POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'rbac-kinds' },
    })
    const writer = {
      apiVersion: `${rbac}/v1`,
      kind: 'ClusterRole',
      metadata: { name: 'rbac-writer' },
      rules: [
        { apiGroups: [rbac], resources: ['*'], verbs: ['get', 'create', 'update', 'patch'] },
        { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] },
      ],
    }
    expect((await api('POST', crPath, writer)).status).toBe(201)
    const bind = {
      apiVersion: `${rbac}/v1`,
      kind: 'ClusterRoleBinding',
      metadata: { name: 'rbac-writer' },
      roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'rbac-writer' },
      subjects: [{ apiGroup: rbac, kind: 'User', name: 'writer' }],
    }
    expect((await api('POST', `/apis/${rbac}/v1/clusterrolebindings`, bind)).status).toBe(201)
    const as = { 'Impersonate-User': 'writer' }
    const wide = [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]
    const narrow = [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }]
    const rolePath = `/apis/${rbac}/v1/namespaces/rbac-kinds/roles`
    for (const [path, kind, ns] of [
      [crPath, 'ClusterRole', undefined],
      [rolePath, 'Role', 'rbac-kinds'],
    ] as const) {
      const obj = (name: string, rules: object[]) => ({
        apiVersion: `${rbac}/v1`,
        kind,
        metadata: { name, ...(ns ? { namespace: ns } : {}) },
        rules,
      })
      expect((await api('POST', path, obj('too-wide', wide), 'application/json', as)).status).toBe(
        403,
      )
      expect((await api('POST', path, obj('narrow', narrow), 'application/json', as)).status).toBe(
        201,
      )
      expect(
        (await api('PUT', `${path}/narrow`, obj('narrow', wide), 'application/json', as)).status,
      ).toBe(403)
      expect(
        (await api('PATCH', `${path}/narrow`, { rules: wide }, 'application/merge-patch+json', as))
          .status,
      ).toBe(403)
      expect(
        (
          await api(
            'PATCH',
            `${path}/narrow?fieldManager=w`,
            obj('narrow', wide),
            'application/apply-patch+yaml',
            as,
          )
        ).status,
      ).toBe(403)
      expect(
        (
          await api(
            'PATCH',
            `${path}/applied?fieldManager=w`,
            obj('applied', wide),
            'application/apply-patch+yaml',
            as,
          )
        ).status,
      ).toBe(403)
      expect((await api('GET', `${path}/applied`)).status).toBe(404)
      expect((await api('GET', `${path}/narrow`)).json.rules).toEqual(narrow)
    }
    const binding = (kind: 'RoleBinding' | 'ClusterRoleBinding', role: string) => ({
      apiVersion: `${rbac}/v1`,
      kind,
      metadata: {
        name: `to-${role}`,
        ...(kind === 'RoleBinding' ? { namespace: 'rbac-kinds' } : {}),
      },
      roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: role },
      subjects: [{ apiGroup: rbac, kind: 'User', name: 'writer' }],
    })
    expect(
      (
        await api(
          'POST',
          `/apis/${rbac}/v1/clusterrolebindings`,
          binding('ClusterRoleBinding', 'cluster-admin'),
          'application/json',
          as,
        )
      ).status,
    ).toBe(403)
    expect(
      (
        await api(
          'POST',
          `/apis/${rbac}/v1/namespaces/rbac-kinds/rolebindings`,
          binding('RoleBinding', 'cluster-admin'),
          'application/json',
          as,
        )
      ).status,
    ).toBe(403)
    expect(
      (
        await api(
          'POST',
          `/apis/${rbac}/v1/namespaces/rbac-kinds/rolebindings`,
          binding('RoleBinding', 'rbac-kinds'),
          'application/json',
          as,
        )
      ).status,
    ).toBe(201)
  })
})

describe('the escalation check under admission policies', () => {
  const admission = '/apis/admissionregistration.k8s.io/v1'
  const rule = {
    apiGroups: [rbac],
    apiVersions: ['v1'],
    operations: ['CREATE', 'UPDATE'],
    resources: ['clusterroles'],
  }

  it('still judges the object stored, from the version admission saw', async () => {
    const policy = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'no-blocked.example.com' },
      spec: {
        matchConstraints: { resourceRules: [rule] },
        validations: [
          { expression: "!has(object.metadata.labels) || !('blocked' in object.metadata.labels)" },
        ],
      },
    }
    expect((await api('POST', `${admission}/validatingadmissionpolicies`, policy)).status).toBe(201)
    const binding = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: 'no-blocked.example.com' },
      spec: { policyName: 'no-blocked.example.com', validationActions: ['Deny'] },
    }
    expect(
      (await api('POST', `${admission}/validatingadmissionpolicybindings`, binding)).status,
    ).toBe(201)
    await selfBoundRole('vap-race')
    const user = userOf('vap-race')
    const check = escalationGuard(env, user, def)!
    const blocked = await admittedStore(env, def, user, check).patch(
      target('vap-race'),
      'merge',
      { metadata: { labels: { blocked: 'y' } } },
      undefined,
      {},
    )
    expect(!blocked.ok && blocked.status.code).toBe(422)

    const flipping = racedGuard(check, () =>
      landed(
        storeFor(env, def).patch(
          target('vap-race'),
          'merge',
          { metadata: { annotations: wild } },
          undefined,
          {},
        ),
      ),
    )
    const res = await admittedStore(env, def, user, flipping).patch(
      target('vap-race'),
      'json',
      copyAnnotations,
      undefined,
      { fieldManager: 'kubectl-patch' },
    )
    expect(!res.ok && res.status.code).toBe(403)
    expect(holdsWildcard((await api('GET', `${crPath}/vap-race`)).json)).toBe(false)

    const name = 'vap-race-new'
    const wide = {
      apiVersion: `${rbac}/v1`,
      kind: 'ClusterRole',
      metadata: { name },
      rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }],
    }
    const creating = racedGuard(check, () =>
      landed(storeFor(env, def).create(target(name), wide as KubeObject, {})),
    )
    const config = {
      apiVersion: `${rbac}/v1`,
      kind: 'ClusterRole',
      metadata: { name, labels: { by: 'apply' } },
    }
    const applied = await admittedStore(env, def, user, creating).patch(
      target(name),
      'apply',
      config,
      undefined,
      { fieldManager: 'kubectl' },
    )
    expect(!applied.ok && applied.status.code).toBe(403)
    expect((await api('GET', `${crPath}/${name}`)).json.metadata.labels).toBeUndefined()
  })
})
