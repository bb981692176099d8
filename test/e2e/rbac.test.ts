import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { kubectlJson, kubectlOn } from './helpers/kubectl'
import { startServer, type TestServer } from './helpers/server'
import { waitFor } from './helpers/wait'

// Two service accounts (deployer bound to `edit`, reader to a Role of its own) and one
// impersonated user (jane), driven through the real kubectl.
describe('RBAC', () => {
  let server: TestServer
  const { run, ok } = kubectlOn(() => server.kubeconfig)
  const out = async (args: string[], stdin?: string) => (await ok(args, stdin)).stdout.trim()
  const tokens: Record<string, string> = {}
  const as = (who: string, args: string[]) => run([`--token=${tokens[who]}`, ...args])
  const json = (args: string[]) => kubectlJson(args, { kubeconfig: server.kubeconfig })

  beforeAll(async () => {
    server = await startServer()
    await ok(['create', 'namespace', 'team'])
    for (const sa of ['deployer', 'reader']) {
      await ok(['create', 'serviceaccount', sa, '-n', 'team'])
      tokens[sa] = await out(['create', 'token', sa, '-n', 'team'])
    }
    // kubectl sends these creates as protobuf.
    await ok([
      'create',
      'rolebinding',
      'deployer-edit',
      '--clusterrole=edit',
      '--serviceaccount=team:deployer',
      '-n',
      'team',
    ])
    await ok([
      'create',
      'role',
      'pod-reader',
      '--verb=get,list,watch',
      '--resource=pods',
      '-n',
      'team',
    ])
    await ok([
      'create',
      'rolebinding',
      'reader',
      '--role=pod-reader',
      '--serviceaccount=team:reader',
      '-n',
      'team',
    ])
  })
  afterAll(async () => {
    await server?.dispose()
  })

  it('serves the default roles and bindings with upstream columns', async () => {
    const roles = await out(['get', 'clusterroles'])
    expect(roles.split('\n')[0]).toMatch(/^NAME\s+CREATED AT$/)
    for (const name of [
      'cluster-admin',
      'admin',
      'edit',
      'view',
      'system:discovery',
      'system:basic-user',
      'system:public-info-viewer',
    ]) {
      expect(roles).toMatch(new RegExp(`^${name}\\s+\\d{4}-\\d\\d-\\d\\dT`, 'm'))
    }
    expect(await out(['get', 'clusterrolebinding', 'cluster-admin', '-o', 'wide'])).toMatch(
      /^cluster-admin\s+ClusterRole\/cluster-admin\s+\S+\s+system:masters\s*$/m,
    )
    expect(await out(['get', 'rolebinding', 'reader', '-n', 'team', '-o', 'wide'])).toMatch(
      /^reader\s+Role\/pod-reader\s+\S+\s+team\/reader\s*$/m,
    )
    const view = await json(['get', 'clusterrole', 'view'])
    expect(view.metadata.annotations['rbac.authorization.kubernetes.io/autoupdate']).toBe('true')
    expect(view.rules).toContainEqual({
      verbs: ['get', 'list', 'watch'],
      apiGroups: [''],
      resources: ['namespaces'],
    })
    const described = await out(['describe', 'rolebinding', 'deployer-edit', '-n', 'team'])
    expect(described).toMatch(/Role:\n\s+Kind:\s+ClusterRole\n\s+Name:\s+edit/)
    expect(described).toMatch(/ServiceAccount\s+deployer\s+team/)
    expect(await out(['describe', 'role', 'pod-reader', '-n', 'team'])).toMatch(
      /pods\s+\[\]\s+\[\]\s+\[get list watch\]/,
    )
    await ok(['create', 'clusterrole', 'node-watcher', '--verb=get,list', '--resource=nodes'])
    await ok([
      'create',
      'clusterrolebinding',
      'ops-nodes',
      '--clusterrole=node-watcher',
      '--group=ops',
      '--serviceaccount=team:reader',
    ])
    expect(await out(['get', 'clusterrolebinding', 'ops-nodes', '-o', 'wide'])).toMatch(
      /^ops-nodes\s+ClusterRole\/node-watcher\s+\S+\s+ops\s+team\/reader\s*$/m,
    )
    expect(
      await out(['auth', 'can-i', 'list', 'nodes', '--as=system:serviceaccount:team:reader']),
    ).toBe('yes')
    expect(await out(['explain', 'clusterrole.aggregationRule'])).toContain('clusterRoleSelectors')
  })

  it('validates as upstream', async () => {
    const bad = await run(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'bad', namespace: 'team' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Thing', name: 'x' },
        subjects: [{ kind: 'Robot', name: 'r' }],
      }),
    )
    expect(bad.stderr).toContain(
      'The RoleBinding "bad" is invalid: \n* roleRef.kind: Unsupported value: "Thing": supported values: "Role", "ClusterRole"\n* subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
    )
    const rules = await run(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: { name: 'r', namespace: 'team' },
        rules: [{ verbs: ['get'], nonResourceURLs: ['/x'] }, { verbs: [] }],
      }),
    )
    expect(rules.stderr).toContain(
      'rules[0].nonResourceURLs: Invalid value: []string{"/x"}: namespaced rules cannot apply to non-resource URLs',
    )
    expect(rules.stderr).toContain(
      'rules[1].verbs: Required value: verbs must contain at least one value',
    )
    const changed = await run([
      'patch',
      'rolebinding',
      'reader',
      '-n',
      'team',
      '--type=merge',
      '-p',
      '{"roleRef":{"name":"other"}}',
    ])
    expect(changed.stderr).toContain(
      'roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"Role", Name:"other"}: cannot change roleRef',
    )
  })

  it('allows what the bindings grant and forbids the rest with upstream messages', async () => {
    expect(
      (await as('deployer', ['create', 'configmap', 'cfg', '--from-literal=a=b', '-n', 'team']))
        .code,
    ).toBe(0)
    expect(
      (await as('deployer', ['create', 'deployment', 'web', '--image=busybox', '-n', 'team'])).code,
    ).toBe(0)
    const elsewhere = await as('deployer', ['get', 'secrets', '-n', 'default'])
    expect(elsewhere.stderr).toContain(
      'secrets is forbidden: User "system:serviceaccount:team:deployer" cannot list resource "secrets" in API group "" in the namespace "default"',
    )
    expect((await as('reader', ['get', 'pods', '-n', 'team'])).code).toBe(0)
    const cm = await as('reader', ['get', 'configmaps', '-n', 'team'])
    expect(cm.stderr).toContain(
      'configmaps is forbidden: User "system:serviceaccount:team:reader" cannot list resource "configmaps" in API group "" in the namespace "team"',
    )
    const can = await as('reader', ['auth', 'can-i', '--list', '-n', 'team'])
    expect(can.stdout).toMatch(/^pods\s+\[\]\s+\[\]\s+\[get list watch\]$/m)
  })

  it('answers can-i and acts as an impersonated user or service account', async () => {
    expect(
      await out([
        'auth',
        'can-i',
        'list',
        'pods',
        '-n',
        'team',
        '--as=system:serviceaccount:team:reader',
      ]),
    ).toBe('yes')
    const no = await run([
      'auth',
      'can-i',
      'list',
      'configmaps',
      '-n',
      'team',
      '--as=system:serviceaccount:team:reader',
    ])
    expect([no.code, no.stdout.trim()]).toEqual([1, 'no'])
    const jane = await run(['get', 'pods', '-n', 'team', '--as=jane'])
    expect(jane.stderr).toContain(
      'User "jane" cannot list resource "pods" in API group "" in the namespace "team"',
    )
    // A service account may not impersonate unless granted the verb.
    const refused = await as('reader', ['get', 'pods', '-n', 'team', '--as=jane'])
    expect(refused.stderr).toContain(
      'users "jane" is forbidden: User "system:serviceaccount:team:reader" cannot impersonate resource "users" in API group "" at the cluster scope',
    )
    const review = {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: {
        user: 'system:serviceaccount:team:reader',
        groups: ['system:serviceaccounts'],
        resourceAttributes: { verb: 'list', resource: 'pods', namespace: 'team' },
      },
    }
    const sar = JSON.parse(
      await out(['create', '--validate=false', '-f', '-', '-o', 'json'], JSON.stringify(review)),
    )
    expect(sar.status).toEqual({
      allowed: true,
      reason:
        'RBAC: allowed by RoleBinding "reader/team" of Role "pod-reader" to ServiceAccount "reader/team"',
    })
    const denied = await run(
      [`--token=${tokens.reader}`, 'create', '--validate=false', '-f', '-'],
      JSON.stringify(review),
    )
    expect(denied.stderr).toContain(
      'User "system:serviceaccount:team:reader" cannot create resource "subjectaccessreviews" in API group "authorization.k8s.io" at the cluster scope',
    )
  })

  it('refuses escalation: create rolebindings alone does not let one bind cluster-admin', async () => {
    await ok(['create', 'role', 'binder', '--verb=create', '--resource=rolebindings', '-n', 'team'])
    await ok(['create', 'rolebinding', 'jane-binder', '--role=binder', '--user=jane', '-n', 'team'])
    const escalate = await run([
      'create',
      'rolebinding',
      'jane-admin',
      '--clusterrole=cluster-admin',
      '--user=jane',
      '-n',
      'team',
      '--as=jane',
    ])
    expect(escalate.code).not.toBe(0)
    expect(escalate.stderr).toContain(
      'rolebindings.rbac.authorization.k8s.io "jane-admin" is forbidden: user "jane" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:',
    )
    expect(escalate.stderr).toContain('{APIGroups:["*"], Resources:["*"], Verbs:["*"]}')
    expect((await run(['get', 'rolebinding', 'jane-admin', '-n', 'team'])).code).not.toBe(0)
    // Nor may a role be written with permissions one lacks.
    await ok(['create', 'role', 'role-writer', '--verb=create', '--resource=roles', '-n', 'team'])
    await ok([
      'create',
      'rolebinding',
      'jane-role-writer',
      '--role=role-writer',
      '--user=jane',
      '-n',
      'team',
    ])
    const sneaky = await run([
      'create',
      'role',
      'sneaky',
      '--verb=get',
      '--resource=secrets',
      '-n',
      'team',
      '--as=jane',
    ])
    expect(sneaky.stderr).toContain(
      'roles.rbac.authorization.k8s.io "sneaky" is forbidden: user "jane" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}',
    )
    // Binding what one holds is fine.
    expect(
      (
        await run([
          'create',
          'rolebinding',
          'jane-self',
          '--role=binder',
          '--user=jane',
          '-n',
          'team',
          '--as=jane',
        ])
      ).code,
    ).toBe(0)
    // With `bind` on the role, binding it is allowed.
    await ok([
      'create',
      'role',
      'bind-view',
      '--verb=bind',
      '--resource=clusterroles',
      '--resource-name=view',
      '-n',
      'team',
    ])
    await ok([
      'create',
      'rolebinding',
      'jane-bind-view',
      '--role=bind-view',
      '--user=jane',
      '-n',
      'team',
    ])
    expect(
      (
        await run([
          'create',
          'rolebinding',
          'jane-view',
          '--clusterrole=view',
          '--user=jane',
          '-n',
          'team',
          '--as=jane',
        ])
      ).code,
    ).toBe(0)
  })

  it('aggregates a CRD role labelled aggregate-to-view into view', async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
            },
          },
        ],
      },
    }
    await ok(['apply', '-f', '-'], JSON.stringify(crd))
    const role = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: {
        name: 'widget-view',
        labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' },
      },
      rules: [
        { apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get', 'list', 'watch'] },
      ],
    }
    await ok(['apply', '-f', '-'], JSON.stringify(role))
    await waitFor(
      async () =>
        (await json(['get', 'clusterrole', 'view'])).rules.some((r: any) =>
          r.resources?.includes('widgets'),
        ),
      { what: 'view to aggregate widgets', timeoutMs: 30_000 },
    )
    // admin aggregates edit, which aggregates view.
    await waitFor(
      async () =>
        (await json(['get', 'clusterrole', 'admin'])).rules.some((r: any) =>
          r.resources?.includes('widgets'),
        ),
      { what: 'admin to aggregate widgets', timeoutMs: 30_000 },
    )
    await ok([
      'create',
      'rolebinding',
      'reader-view',
      '--clusterrole=view',
      '--serviceaccount=team:reader',
      '-n',
      'team',
    ])
    await waitFor(async () => (await as('reader', ['get', 'widgets', '-n', 'team'])).code === 0, {
      what: 'reader to list widgets',
    })
  })

  it('reconciles with kubectl auth reconcile', async () => {
    const manifest = [
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: { name: 'ci', namespace: 'team' },
        rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'ci', namespace: 'team' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'ci' },
        subjects: [{ kind: 'ServiceAccount', name: 'reader', namespace: 'team' }],
      },
    ]
    const yaml = JSON.stringify({ apiVersion: 'v1', kind: 'List', items: manifest })
    expect(await out(['auth', 'reconcile', '-f', '-'], yaml)).toMatch(
      /role\.rbac\.authorization\.k8s\.io\/ci reconciled/,
    )
    expect(await out(['auth', 'reconcile', '-f', '-'], yaml)).toMatch(
      /role\.rbac\.authorization\.k8s\.io\/ci reconciled/,
    )
    await waitFor(
      async () => (await as('reader', ['get', 'configmap', 'cfg', '-n', 'team'])).code === 0,
      { what: 'reader to read the configmap' },
    )
  })

  it('takes a revoked binding away', async () => {
    expect((await as('deployer', ['create', 'configmap', 'before', '-n', 'team'])).code).toBe(0)
    await ok(['delete', 'rolebinding', 'deployer-edit', '-n', 'team'])
    const after = await waitFor(
      async () => {
        const res = await as('deployer', ['create', 'configmap', 'after', '-n', 'team'])
        return res.code !== 0 && res.stderr
      },
      { what: 'the revoked binding to take effect' },
    )
    expect(after).toContain(
      'configmaps is forbidden: User "system:serviceaccount:team:deployer" cannot create resource "configmaps" in API group "" in the namespace "team"',
    )
  })

  it('reconciles the default policy at startup, leaving objects marked autoupdate=false alone', async () => {
    await ok(['patch', 'clusterrole', 'system:basic-user', '--type=merge', '-p', '{"rules":[]}'])
    await ok([
      'annotate',
      'clusterrole',
      'system:public-info-viewer',
      'rbac.authorization.kubernetes.io/autoupdate=false',
      '--overwrite',
    ])
    await ok([
      'patch',
      'clusterrole',
      'system:public-info-viewer',
      '--type=merge',
      '-p',
      '{"rules":[]}',
    ])
    await server.restart()
    const basic = await json(['get', 'clusterrole', 'system:basic-user'])
    // As upstream's reconcile, the missing permissions come back one rule each.
    expect(basic.rules).toContainEqual({
      verbs: ['create'],
      apiGroups: ['authorization.k8s.io'],
      resources: ['selfsubjectaccessreviews'],
    })
    expect(basic.rules).toContainEqual({
      verbs: ['create'],
      apiGroups: ['authentication.k8s.io'],
      resources: ['selfsubjectreviews'],
    })
    expect((await json(['get', 'clusterrole', 'system:public-info-viewer'])).rules ?? []).toEqual(
      [],
    )
  })
})
