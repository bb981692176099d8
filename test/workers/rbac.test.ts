import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:test'
import type { KubeObject } from '../../src/apimachinery/types'
import type { Attributes } from '../../src/api/authorization/attributes'
import { RbacPolicy, ruleAllows, type PolicyRule } from '../../src/api/authorization/rbac'
import { uncovered } from '../../src/apis/rbac/covers'
import { aggregateRoles } from '../../src/apis/rbac/aggregate'
import { findResource } from '../../src/apis/registry'
import { storeFor } from '../../src/store-client/stores'
import type { UserInfo } from '../../src/apimachinery/user-info'
import { api } from './helpers'
import { waitFor } from '../helpers'

const get = (resource: string, extra: Partial<Attributes> = {}): Attributes =>
  ({ verb: 'get', group: '', resource, ...extra }) as Attributes

describe('rule matcher', () => {
  const cases: [string, PolicyRule, Attributes, boolean][] = [
    [
      'exact verb, group and resource',
      { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
      get('pods'),
      true,
    ],
    ['another verb', { verbs: ['list'], apiGroups: [''], resources: ['pods'] }, get('pods'), false],
    ['verb *', { verbs: ['*'], apiGroups: [''], resources: ['pods'] }, get('pods'), true],
    [
      'another group',
      { verbs: ['get'], apiGroups: ['apps'], resources: ['pods'] },
      get('pods'),
      false,
    ],
    [
      'group *',
      { verbs: ['get'], apiGroups: ['*'], resources: ['deployments'] },
      get('deployments', { group: 'apps' }),
      true,
    ],
    ['resource *', { verbs: ['get'], apiGroups: [''], resources: ['*'] }, get('secrets'), true],
    [
      'resource * covers subresources',
      { verbs: ['get'], apiGroups: [''], resources: ['*'] },
      get('pods', { subresource: 'log' }),
      true,
    ],
    [
      'a resource does not grant its subresource',
      { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
      get('pods', { subresource: 'log' }),
      false,
    ],
    [
      'pods/log grants the subresource',
      { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] },
      get('pods', { subresource: 'log' }),
      true,
    ],
    [
      '*/scale grants scale of any resource',
      { verbs: ['get'], apiGroups: ['apps'], resources: ['*/scale'] },
      get('deployments', { group: 'apps', subresource: 'scale' }),
      true,
    ],
    [
      '*/scale does not grant the resource',
      { verbs: ['get'], apiGroups: ['apps'], resources: ['*/scale'] },
      get('deployments', { group: 'apps' }),
      false,
    ],
    [
      'resourceNames match the name',
      { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] },
      get('configmaps', { name: 'a' }),
      true,
    ],
    [
      'resourceNames refuse other names',
      { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] },
      get('configmaps', { name: 'b' }),
      false,
    ],
    [
      'resourceNames refuse a list (no name)',
      { verbs: ['list'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] },
      { verb: 'list', group: '', resource: 'configmaps' },
      false,
    ],
    [
      'nonResourceURL exact',
      { verbs: ['get'], nonResourceURLs: ['/healthz'] },
      { verb: 'get', path: '/healthz' },
      true,
    ],
    [
      'nonResourceURL prefix *',
      { verbs: ['get'], nonResourceURLs: ['/apis/*'] },
      { verb: 'get', path: '/apis/apps/v1' },
      true,
    ],
    [
      'nonResourceURL * is everything',
      { verbs: ['get'], nonResourceURLs: ['*'] },
      { verb: 'get', path: '/metrics' },
      true,
    ],
    [
      'nonResourceURL other path',
      { verbs: ['get'], nonResourceURLs: ['/api'] },
      { verb: 'get', path: '/apis' },
      false,
    ],
    [
      'resource rules never grant paths',
      { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
      { verb: 'get', path: '/metrics' },
      false,
    ],
    [
      'URL rules never grant resources',
      { verbs: ['*'], nonResourceURLs: ['*'] },
      get('pods'),
      false,
    ],
  ]
  it.each(cases)('%s', (_name, rule, attrs, allowed) => {
    expect(ruleAllows(attrs, rule)).toBe(allowed)
  })
})

const rbac = 'rbac.authorization.k8s.io'
const role = (
  kind: 'Role' | 'ClusterRole',
  name: string,
  rules: PolicyRule[],
  namespace?: string,
  labels?: Record<string, string>,
): KubeObject =>
  ({
    apiVersion: `${rbac}/v1`,
    kind,
    metadata: { name, ...(namespace ? { namespace } : {}), ...(labels ? { labels } : {}) },
    rules,
  }) as KubeObject
const binding = (
  kind: 'RoleBinding' | 'ClusterRoleBinding',
  name: string,
  ref: [string, string],
  subjects: object[],
  namespace?: string,
): KubeObject =>
  ({
    apiVersion: `${rbac}/v1`,
    kind,
    metadata: { name, ...(namespace ? { namespace } : {}) },
    roleRef: { apiGroup: rbac, kind: ref[0], name: ref[1] },
    subjects,
  }) as KubeObject

describe('RBAC policy', () => {
  const readPods = { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }
  const policy = new RbacPolicy({
    clusterRoles: [
      role('ClusterRole', 'pod-reader', [readPods]),
      role('ClusterRole', 'node-reader', [
        { verbs: ['list'], apiGroups: [''], resources: ['nodes'] },
      ]),
    ],
    roles: [
      role('Role', 'cm', [{ verbs: ['create'], apiGroups: [''], resources: ['configmaps'] }], 'a'),
    ],
    roleBindings: [
      binding(
        'RoleBinding',
        'local-sa',
        ['ClusterRole', 'pod-reader'],
        [{ kind: 'ServiceAccount', name: 'bot' }],
        'a',
      ),
      binding(
        'RoleBinding',
        'all-sa-in-b',
        ['ClusterRole', 'pod-reader'],
        [{ kind: 'Group', apiGroup: rbac, name: 'system:serviceaccounts:b' }],
        'b',
      ),
      binding(
        'RoleBinding',
        'cm',
        ['Role', 'cm'],
        [{ kind: 'User', apiGroup: rbac, name: 'jane' }],
        'a',
      ),
      binding(
        'RoleBinding',
        'dangling',
        ['Role', 'missing'],
        [{ kind: 'User', apiGroup: rbac, name: 'jane' }],
        'c',
      ),
      binding(
        'RoleBinding',
        'nodes-in-ns',
        ['ClusterRole', 'node-reader'],
        [{ kind: 'User', apiGroup: rbac, name: 'jane' }],
        'a',
      ),
    ],
    clusterRoleBindings: [
      binding(
        'ClusterRoleBinding',
        'everyone-nodes',
        ['ClusterRole', 'node-reader'],
        [{ kind: 'Group', apiGroup: rbac, name: 'system:authenticated' }],
      ),
    ],
  })
  const sa = (ns: string, name: string): UserInfo => ({
    username: `system:serviceaccount:${ns}:${name}`,
    groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated'],
  })
  const jane: UserInfo = { username: 'jane', groups: ['system:authenticated'] }
  const cases: [string, UserInfo, Attributes, string | false][] = [
    [
      'a RoleBinding to a ClusterRole grants it in its namespace',
      sa('a', 'bot'),
      { verb: 'list', group: '', resource: 'pods', namespace: 'a' },
      'RBAC: allowed by RoleBinding "local-sa/a" of ClusterRole "pod-reader" to ServiceAccount "bot/a"',
    ],
    [
      '… and nowhere else',
      sa('a', 'bot'),
      { verb: 'list', group: '', resource: 'pods', namespace: 'b' },
      false,
    ],
    [
      '… nor across namespaces',
      sa('a', 'bot'),
      { verb: 'list', group: '', resource: 'pods' },
      false,
    ],
    [
      'a service account of another namespace with the same name',
      sa('x', 'bot'),
      { verb: 'list', group: '', resource: 'pods', namespace: 'a' },
      false,
    ],
    [
      'the system:serviceaccounts:<ns> group',
      sa('b', 'any'),
      { verb: 'get', group: '', resource: 'pods', namespace: 'b', name: 'p' },
      'RBAC: allowed by RoleBinding "all-sa-in-b/b" of ClusterRole "pod-reader" to Group "system:serviceaccounts:b"',
    ],
    [
      'a User subject and a Role',
      jane,
      { verb: 'create', group: '', resource: 'configmaps', namespace: 'a' },
      'RBAC: allowed by RoleBinding "cm/a" of Role "cm" to User "jane"',
    ],
    [
      'a binding to a missing role grants nothing',
      jane,
      { verb: 'create', group: '', resource: 'configmaps', namespace: 'c' },
      false,
    ],
    [
      'system:authenticated through a ClusterRoleBinding',
      sa('a', 'bot'),
      { verb: 'list', group: '', resource: 'nodes' },
      'RBAC: allowed by ClusterRoleBinding "everyone-nodes" of ClusterRole "node-reader" to Group "system:authenticated"',
    ],
    [
      'anonymous is not authenticated',
      { username: 'system:anonymous', groups: ['system:unauthenticated'] },
      { verb: 'list', group: '', resource: 'nodes' },
      false,
    ],
  ]
  it.each(cases)('%s', (_name, user, attrs, reason) => {
    expect(policy.authorize(user, attrs)).toEqual(
      reason === false ? { allowed: false, reason: '' } : { allowed: true, reason },
    )
  })

  it('lists the rules of a namespace: ClusterRoleBindings first, then the namespace’s RoleBindings', () => {
    expect(policy.rulesFor(jane, 'a')).toEqual([
      { verbs: ['list'], apiGroups: [''], resources: ['nodes'] },
      { verbs: ['create'], apiGroups: [''], resources: ['configmaps'] },
      { verbs: ['list'], apiGroups: [''], resources: ['nodes'] },
    ])
    expect(policy.rulesFor(jane, '')).toEqual([
      { verbs: ['list'], apiGroups: [''], resources: ['nodes'] },
    ])
  })
})

describe('covering rules (escalation check)', () => {
  const cases: [string, PolicyRule[], PolicyRule[], number][] = [
    [
      'the same rule',
      [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }],
      [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }],
      0,
    ],
    [
      'wildcards cover everything',
      [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
      [
        {
          verbs: ['get', 'delete'],
          apiGroups: ['apps'],
          resources: ['deployments', 'deployments/scale'],
        },
      ],
      0,
    ],
    [
      'each missing verb counts',
      [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }],
      [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] }],
      2,
    ],
    [
      'named access does not cover all names',
      [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] }],
      [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }],
      1,
    ],
    [
      'all names cover a named rule',
      [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }],
      [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['a', 'b'] }],
      0,
    ],
    [
      '*/scale covers a scale subresource',
      [{ verbs: ['get'], apiGroups: ['apps'], resources: ['*/scale'] }],
      [{ verbs: ['get'], apiGroups: ['apps'], resources: ['deployments/scale'] }],
      0,
    ],
    [
      'a URL prefix covers longer URLs',
      [{ verbs: ['get'], nonResourceURLs: ['/apis/*'] }],
      [{ verbs: ['get'], nonResourceURLs: ['/apis/apps', '/api'] }],
      1,
    ],
    [
      '* does not hide in a verb list',
      [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }],
      [{ verbs: ['*'], apiGroups: [''], resources: ['pods'] }],
      1,
    ],
  ]
  it.each(cases)('%s', (_name, owner, requested, missing) => {
    expect(uncovered(owner, requested)).toHaveLength(missing)
  })
})

describe('aggregation', () => {
  it('fills an aggregated role from the roles its selectors match, through nested aggregation', () => {
    const roles = aggregateRoles([
      {
        ...role('ClusterRole', 'top', []),
        aggregationRule: { clusterRoleSelectors: [{ matchLabels: { top: 'true' } }] },
      },
      {
        ...role('ClusterRole', 'mid', [], undefined, { top: 'true' }),
        aggregationRule: { clusterRoleSelectors: [{ matchLabels: { mid: 'true' } }] },
      },
      role(
        'ClusterRole',
        'b-leaf',
        [{ verbs: ['get'], apiGroups: [''], resources: ['b'] }],
        undefined,
        { mid: 'true' },
      ),
      role(
        'ClusterRole',
        'a-leaf',
        [{ verbs: ['get'], apiGroups: [''], resources: ['a'] }],
        undefined,
        { mid: 'true' },
      ),
      role('ClusterRole', 'other', [{ verbs: ['get'], apiGroups: [''], resources: ['c'] }]),
    ])
    const rules = (name: string) =>
      roles.find((r) => r.metadata.name === name)!.rules!.map((r) => r.resources![0])
    expect(rules('mid')).toEqual(['a', 'b'])
    expect(rules('top')).toEqual(['a', 'b'])
  })
})

describe('authorizing requests', () => {
  const ns = 'rbac-workers'
  const bearer = (t: string) => ({ Authorization: `Bearer ${t}` })

  it('grants a service-account token what its bindings grant, and takes it back when a binding changes anywhere', async () => {
    await api('POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: ns },
    })
    await api('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'ci' },
    })
    const tr = await api('POST', `/api/v1/namespaces/${ns}/serviceaccounts/ci/token`, {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: {},
    })
    const sa = tr.json.status.token as string
    const list = () =>
      api('GET', `/api/v1/namespaces/${ns}/configmaps`, undefined, undefined, bearer(sa))
    const denied = await list()
    expect(denied.status).toBe(403)
    expect(denied.json.message).toBe(
      `configmaps is forbidden: User "system:serviceaccount:${ns}:ci" cannot list resource "configmaps" in API group "" in the namespace "${ns}"`,
    )

    const rb = binding(
      'RoleBinding',
      'ci-view',
      ['ClusterRole', 'view'],
      [{ kind: 'ServiceAccount', name: 'ci', namespace: ns }],
      ns,
    )
    expect((await api('POST', `/apis/${rbac}/v1/namespaces/${ns}/rolebindings`, rb)).status).toBe(
      201,
    )
    expect((await list()).status).toBe(200)

    // Deleted behind the Worker's back, straight in the store: the snapshot notices within its bound.
    const def = findResource(rbac, 'v1', 'rolebindings')!
    const res = await storeFor(env, def).delete({ def, namespace: ns, name: 'ci-view' }, {})
    expect(res.ok).toBe(true)
    const refused = await waitFor(
      async () => {
        const status = (await list()).status
        return status !== 200 && status
      },
      { what: 'the list to be refused', timeoutMs: 5_000 },
    )
    expect(refused).toBe(403)
  })
})

describe('access reviews and impersonation', () => {
  const authz = '/apis/authorization.k8s.io/v1'
  const sar = (spec: object) => ({
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SubjectAccessReview',
    spec,
  })

  it('SubjectAccessReview answers for the user it names, from the cluster policy', async () => {
    const yes = await api(
      'POST',
      `${authz}/subjectaccessreviews`,
      sar({
        user: 'someone',
        groups: ['system:masters'],
        resourceAttributes: { verb: 'delete', resource: 'nodes' },
      }),
    )
    expect([yes.status, yes.json.status]).toEqual([201, { allowed: true }])
    const no = await api(
      'POST',
      `${authz}/subjectaccessreviews`,
      sar({
        user: 'someone',
        groups: ['system:authenticated'],
        resourceAttributes: { verb: 'list', resource: 'secrets', namespace: 'x' },
      }),
    )
    expect(no.json.status).toEqual({ allowed: false })
    const bad = await api(
      'POST',
      `${authz}/subjectaccessreviews`,
      sar({ resourceAttributes: { verb: 'get', resource: 'pods' } }),
    )
    expect([bad.status, bad.json.message]).toEqual([
      422,
      'SubjectAccessReview.authorization.k8s.io "" is invalid: spec.user: Invalid value: "": at least one of user or group must be specified',
    ])
  })

  it('LocalSubjectAccessReview stays in its namespace', async () => {
    const lsar = (ns: string) => ({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'LocalSubjectAccessReview',
      spec: { user: 'u', resourceAttributes: { verb: 'get', resource: 'pods', namespace: ns } },
    })
    const ok = await api(
      'POST',
      `${authz}/namespaces/default/localsubjectaccessreviews`,
      lsar('default'),
    )
    expect([ok.status, ok.json.metadata.namespace, ok.json.status.allowed]).toEqual([
      201,
      'default',
      false,
    ])
    const other = await api(
      'POST',
      `${authz}/namespaces/default/localsubjectaccessreviews`,
      lsar('kube-system'),
    )
    expect([other.status, other.json.message]).toEqual([
      400,
      'spec.resourceAttributes.namespace must match namespace: default',
    ])
  })

  it('impersonation needs a user, and the impersonated user is who the request runs as', async () => {
    const groupOnly = await api('GET', '/api/v1/namespaces/default/pods', undefined, undefined, {
      'Impersonate-Group': 'devs',
    })
    expect([groupOnly.status, groupOnly.json.message]).toEqual([
      400,
      'requested [groups] without impersonating a user',
    ])
    const jane = await api('GET', '/api/v1/namespaces/default/pods', undefined, undefined, {
      'Impersonate-User': 'jane',
    })
    expect([jane.status, jane.json.message]).toEqual([
      403,
      'pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default"',
    ])
    const who = await api(
      'POST',
      '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
      undefined,
      {
        'Impersonate-User': 'system:serviceaccount:default:ci',
        'Impersonate-Extra-Scopes': 'a',
      },
    )
    expect(who.json.status.userInfo).toEqual({
      username: 'system:serviceaccount:default:ci',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
      extra: { scopes: ['a'] },
    })
  })
})
