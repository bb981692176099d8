import { describe, expect, it } from 'vitest'
import { createHmac } from 'node:crypto'
import {
  isServiceAccountToken,
  mintServiceAccountToken,
  verifyServiceAccountToken,
  type ServiceAccountClaims,
} from '../../../../src/apimachinery/service-account-token'
import { formatNodeToken, newNodeToken } from '../../../../src/apimachinery/node-token'
import { ApiError } from '../../../../src/apimachinery/status'
import {
  serveSelfSubjectAccessReview,
  serveSelfSubjectRulesReview,
} from '../../../../src/api/authorization/access-review'
import { authorize, forbiddenStatus } from '../../../../src/api/authorization/authorize'
import { ruleAllows } from '../../../../src/api/authorization/rbac'
import { serveSelfSubjectReview } from '../../../../src/api/authorization/self-review'
import {
  adminUser,
  nodeUserInfo,
  serviceAccountUserInfo,
  setRequestUser,
} from '../../../../src/api/authentication/user'
import { type UserInfo } from '../../../../src/apimachinery/user-info'

const admin = 'admin-token-for-tests'
const claims: ServiceAccountClaims = {
  namespace: 'default',
  name: 'bot',
  uid: 'u-1',
  id: 'j-1',
  audiences: ['https://kubernetes.default.svc.cluster.local'],
  issuedAt: 1000,
  expiresAt: 4600,
}
const bot = serviceAccountUserInfo(claims)

describe('service-account tokens', () => {
  it('are HS256 JWTs with upstream claims, verified until they expire', async () => {
    const token = await mintServiceAccountToken(admin, claims)
    const [h, p, s] = token.split('.') as [string, string, string]
    expect(s).toBe(createHmac('sha256', admin).update(`${h}.${p}`).digest('base64url'))
    expect(JSON.parse(Buffer.from(p, 'base64url').toString())).toEqual({
      aud: claims.audiences,
      exp: 4600,
      iat: 1000,
      iss: 'https://kubernetes.default.svc.cluster.local',
      jti: 'j-1',
      'kubernetes.io': { namespace: 'default', serviceaccount: { name: 'bot', uid: 'u-1' } },
      nbf: 1000,
      sub: 'system:serviceaccount:default:bot',
    })
    expect(isServiceAccountToken(token)).toBe(true)
    expect(isServiceAccountToken(formatNodeToken(newNodeToken()))).toBe(false)
    expect(await verifyServiceAccountToken(admin, token, 1000)).toEqual(claims)
    expect(await verifyServiceAccountToken(admin, token, 4599)).toEqual(claims)
    expect(await verifyServiceAccountToken(admin, token, 4600)).toBeUndefined()
    expect(await verifyServiceAccountToken(admin, token, 999)).toBeUndefined()
    expect(await verifyServiceAccountToken('other', token, 2000)).toBeUndefined()
  })

  it('refuse a changed payload, and audiences other than the API server', async () => {
    const token = await mintServiceAccountToken(admin, claims)
    const [h, p, s] = token.split('.') as [string, string, string]
    const body = JSON.parse(Buffer.from(p, 'base64url').toString())
    body.exp = 99999
    expect(
      await verifyServiceAccountToken(
        admin,
        `${h}.${Buffer.from(JSON.stringify(body)).toString('base64url')}.${s}`,
        2000,
      ),
    ).toBeUndefined()
    const other = await mintServiceAccountToken(admin, { ...claims, audiences: ['vault'] })
    expect(await verifyServiceAccountToken(admin, other, 2000)).toBeUndefined()
  })
})

describe('authorization', () => {
  it('allows the admin everything, with no reason, as system:masters', () => {
    expect(
      authorize(adminUser, {
        verb: 'delete',
        group: 'apps',
        resource: 'deployments',
        namespace: 'x',
      }),
    ).toEqual({ allowed: true, reason: '' })
    expect(authorize(adminUser, { verb: 'get', path: '/metrics' })).toEqual({
      allowed: true,
      reason: '',
    })
  })

  it('gives a service account only what the bootstrap bindings give every authenticated user', () => {
    expect(
      authorize(bot, { verb: 'list', group: '', resource: 'pods', namespace: 'default' }),
    ).toEqual({ allowed: false, reason: '' })
    expect(
      authorize(bot, {
        verb: 'create',
        group: 'authorization.k8s.io',
        resource: 'selfsubjectaccessreviews',
      }),
    ).toEqual({
      allowed: true,
      reason:
        'RBAC: allowed by ClusterRoleBinding "system:basic-user" of ClusterRole "system:basic-user" to Group "system:authenticated"',
    })
    expect(authorize(bot, { verb: 'get', path: '/apis/apps/v1' }).reason).toBe(
      'RBAC: allowed by ClusterRoleBinding "system:discovery" of ClusterRole "system:discovery" to Group "system:authenticated"',
    )
    expect(authorize(bot, { verb: 'get', path: '/openid/v1/jwks' }).reason).toContain(
      'to Group "system:serviceaccounts"',
    )
    expect(authorize(bot, { verb: 'post', path: '/api' }).allowed).toBe(false)
    expect(authorize(bot, { verb: 'get', path: '/metrics' }).allowed).toBe(false)
  })

  it('runs the Node authorizer for nodes, then RBAC', () => {
    const n1 = nodeUserInfo('n1')
    expect(
      authorize(n1, {
        verb: 'patch',
        group: '',
        resource: 'pods',
        subresource: 'status',
        namespace: 'a',
        name: 'p',
      }).allowed,
    ).toBe(true)
    expect(authorize(n1, { verb: 'get', path: '/agent/v1/nodes/n1/tunnel' }).allowed).toBe(true)
    expect(authorize(n1, { verb: 'get', path: '/agent/v1/nodes/n2/tunnel' }).allowed).toBe(false)
    expect(authorize(n1, { verb: 'get', path: '/agent/v1/nodes/n1/heartbeat' }).allowed).toBe(true)
    const other = authorize(n1, { verb: 'get', path: '/agent/v1/nodes/n2/heartbeat' })
    expect(other).toEqual({
      allowed: false,
      reason: 'only node "n2"\'s own credential may open its heartbeat',
    })
    // No group stands in for the node's own credential, system:masters included.
    expect(
      authorize(adminUser, { verb: 'get', path: '/agent/v1/nodes/n1/heartbeat' }).allowed,
    ).toBe(false)
    expect(
      authorize(n1, {
        verb: 'create',
        group: 'authentication.k8s.io',
        resource: 'selfsubjectreviews',
      }).allowed,
    ).toBe(true)
    expect(authorize(n1, { verb: 'list', group: 'apps', resource: 'deployments' }).allowed).toBe(
      false,
    )
  })

  it('matches rules as RBAC does', () => {
    const pods = { verb: 'get', group: '', resource: 'pods', subresource: 'log', name: 'p' }
    expect(ruleAllows(pods, { verbs: ['*'], apiGroups: [''], resources: ['*/log'] })).toBe(true)
    expect(ruleAllows(pods, { verbs: ['get'], apiGroups: [''], resources: ['pods'] })).toBe(false)
    expect(
      ruleAllows(pods, {
        verbs: ['get'],
        apiGroups: ['*'],
        resources: ['pods/log'],
        resourceNames: ['q'],
      }),
    ).toBe(false)
    expect(
      ruleAllows({ verb: 'get', path: '/api/v1' }, { verbs: ['get'], nonResourceURLs: ['/api/*'] }),
    ).toBe(true)
    expect(
      ruleAllows({ verb: 'get', path: '/apis' }, { verbs: ['get'], nonResourceURLs: ['/api'] }),
    ).toBe(false)
  })

  it('words refusals as kube-apiserver does', () => {
    expect(
      forbiddenStatus(bot, { verb: 'list', group: '', resource: 'pods', namespace: 'default' }),
    ).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      message:
        'pods is forbidden: User "system:serviceaccount:default:bot" cannot list resource "pods" in API group "" in the namespace "default"',
      details: { group: '', kind: 'pods' },
    })
  })
})

describe('review endpoints', () => {
  const post = (path: string, user: UserInfo, body: unknown, method = 'POST') => {
    const req = new Request(`https://x${path}`, {
      method,
      headers: { 'Content-Type': 'application/json' },
      body: method === 'POST' ? JSON.stringify(body) : undefined,
    })
    setRequestUser(req, user)
    return req
  }
  const failureOf = async (p: Promise<Response>) => {
    try {
      await p
    } catch (e) {
      if (e instanceof ApiError) return e.status
      throw e
    }
    throw new Error('expected an ApiError')
  }

  it('SelfSubjectReview returns the caller with uid and extra', async () => {
    const res = await serveSelfSubjectReview(
      post('/r', bot, { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
    )
    expect(res.status).toBe(201)
    const body = (await res.json()) as any
    expect(body).toMatchObject({
      kind: 'SelfSubjectReview',
      apiVersion: 'authentication.k8s.io/v1',
      status: {
        userInfo: {
          username: 'system:serviceaccount:default:bot',
          uid: 'u-1',
          extra: { 'authentication.kubernetes.io/credential-id': ['JTI=j-1'] },
        },
      },
    })
    expect(body.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
    expect((await failureOf(serveSelfSubjectReview(post('/r', bot, undefined, 'GET')))).code).toBe(
      405,
    )
  })

  it('SelfSubjectAccessReview answers for the caller and validates its spec as upstream', async () => {
    const review = (user: UserInfo, spec: unknown) =>
      serveSelfSubjectAccessReview(
        post('/r', user, {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SelfSubjectAccessReview',
          spec,
        }),
      )
    const denied = (await (
      await review(bot, {
        resourceAttributes: { verb: 'list', resource: 'pods', namespace: 'default' },
      })
    ).json()) as any
    expect(denied.status).toEqual({ allowed: false })
    const allowed = (await (
      await review(bot, { nonResourceAttributes: { verb: 'get', path: '/version' } })
    ).json()) as any
    expect(allowed.status.allowed).toBe(true)
    expect(
      (
        (await (
          await review(adminUser, {
            resourceAttributes: { verb: 'create', group: 'apps', resource: 'deployments' },
          })
        ).json()) as any
      ).status,
    ).toEqual({ allowed: true })
    expect(await failureOf(review(bot, {}))).toMatchObject({
      code: 422,
      message:
        'SelfSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
    })
    expect(
      (
        await failureOf(
          review(bot, {
            resourceAttributes: { verb: 'get' },
            nonResourceAttributes: { verb: 'get', path: '/api' },
          }),
        )
      ).message,
    ).toBe(
      'SelfSubjectAccessReview.authorization.k8s.io "" is invalid: spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/api", Verb:"get"}: cannot be specified in combination with resourceAttributes',
    )
  })

  it('SelfSubjectRulesReview lists the rules the caller holds', async () => {
    const res = await serveSelfSubjectRulesReview(
      post('/r', bot, {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectRulesReview',
        spec: { namespace: 'default' },
      }),
    )
    const body = (await res.json()) as any
    expect(body.status.incomplete).toBe(false)
    expect(body.status.resourceRules).toContainEqual({
      verbs: ['create'],
      apiGroups: ['authentication.k8s.io'],
      resources: ['selfsubjectreviews'],
    })
    expect(body.status.nonResourceRules.flatMap((r: any) => r.nonResourceURLs)).toContain('/api/*')
  })
})
