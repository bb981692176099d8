/**
 * Kubernetes' authz CEL library (k8s.io/apiserver/pkg/cel/library/authz.go, with the selectors of
 * 1.31): the `authorizer` variable asks the cluster's authorizer whether the requesting user (or,
 * after `serviceAccount(namespace, name)`, a service account) may do something:
 * `authorizer.group('apps').resource('deployments').subresource('scale').namespace('ns').name('n')
 * .check('update')` or `authorizer.path('/healthz').check('get')`, whose decision answers
 * `allowed()`, `reason()`, `errored()` and `error()`. `authorizer.requestResource` is the check of
 * the request's own resource. A check costs 350,000, as upstream prices it (two per expression).
 * The authorizer itself is handed in by whoever evaluates (`Authorize`).
 */
import type { Environment } from '@marcbachmann/cel-js'
import type { UserInfo } from '../../apimachinery/user-info'
import { isDns1123Label, isDns1123Subdomain } from '../../apimachinery/field-formats'
import { serviceAccountIdentity } from '../../apimachinery/service-account-token'
import { chargeCost } from './cel-cost'

/** What is asked: a resource (any version), or a non-resource path. */
export type AuthorizationAttributes =
  | {
      verb: string
      group: string
      version: string
      resource: string
      subresource?: string
      namespace?: string
      name?: string
      fieldSelector?: string
      labelSelector?: string
    }
  | { verb: string; path: string }

export interface AuthorizationDecision {
  allowed: boolean
  reason: string
  /** why the authorizer could not decide */
  error?: string
}

/** The authorizer a CEL evaluation asks; synchronous, as CEL evaluates. */
export type Authorize = (
  user: UserInfo,
  attributes: AuthorizationAttributes,
) => AuthorizationDecision

export const checkCost = 350_000

export class CelAuthorizer {
  readonly requestResource: ResourceCheck | null
  constructor(
    readonly user: UserInfo,
    readonly authorize: Authorize,
    request?: {
      group: string
      resource: string
      subresource: string
      namespace: string
      name: string
    },
  ) {
    this.requestResource = request
      ? new ResourceCheck(
          this,
          request.group,
          request.resource,
          request.subresource,
          request.namespace,
          request.name,
        )
      : null
  }
}

export class PathCheck {
  constructor(
    readonly authorizer: CelAuthorizer,
    readonly path: string,
  ) {}
}

export class GroupCheck {
  constructor(
    readonly authorizer: CelAuthorizer,
    readonly group: string,
  ) {}
}

export class ResourceCheck {
  constructor(
    readonly authorizer: CelAuthorizer,
    readonly group: string,
    readonly resource: string,
    readonly subresource = '',
    readonly namespace = '',
    readonly name = '',
    readonly fieldSelector = '',
    readonly labelSelector = '',
  ) {}
  with(
    change: Partial<
      Pick<ResourceCheck, 'subresource' | 'namespace' | 'name' | 'fieldSelector' | 'labelSelector'>
    >,
  ): ResourceCheck {
    const c = { ...this, ...change }
    return new ResourceCheck(
      this.authorizer,
      this.group,
      this.resource,
      c.subresource,
      c.namespace,
      c.name,
      c.fieldSelector,
      c.labelSelector,
    )
  }
}

export class CelDecision {
  constructor(readonly decision: AuthorizationDecision) {}
}

function decide(authorizer: CelAuthorizer, attributes: AuthorizationAttributes): CelDecision {
  chargeCost(checkCost - 1)
  try {
    return new CelDecision(authorizer.authorize(authorizer.user, attributes))
  } catch (err) {
    return new CelDecision({ allowed: false, reason: '', error: (err as Error).message })
  }
}

function resourceAttributes(c: ResourceCheck, verb: string): AuthorizationAttributes {
  const attrs: AuthorizationAttributes = {
    verb,
    group: c.group,
    version: '*',
    resource: c.resource,
  }
  if (c.subresource) attrs.subresource = c.subresource
  if (c.namespace) attrs.namespace = c.namespace
  if (c.name) attrs.name = c.name
  if (c.fieldSelector) attrs.fieldSelector = c.fieldSelector
  if (c.labelSelector) attrs.labelSelector = c.labelSelector
  return attrs
}

const A = 'kubernetes.authorization.Authorizer'
const P = 'kubernetes.authorization.PathCheck'
const G = 'kubernetes.authorization.GroupCheck'
const R = 'kubernetes.authorization.ResourceCheck'
const D = 'kubernetes.authorization.Decision'

/** The library and the `authorizer` variable (with its `requestResource`). */
export function registerAuthzLibrary(env: Environment): void {
  env.registerType(R, ResourceCheck)
  env.registerType(P, PathCheck)
  env.registerType(G, GroupCheck)
  env.registerType(D, CelDecision)
  env.registerType(A, { ctor: CelAuthorizer, fields: { requestResource: R } })
  env.registerVariable('authorizer', A)

  env.registerFunction(`${A}.path(string): ${P}`, (a: CelAuthorizer, path: string) => {
    if (!path.trim()) throw new Error('path must not be empty')
    return new PathCheck(a, path)
  })
  env.registerFunction(
    `${A}.group(string): ${G}`,
    (a: CelAuthorizer, group: string) => new GroupCheck(a, group),
  )
  env.registerFunction(
    `${A}.serviceAccount(string, string): ${A}`,
    (a: CelAuthorizer, namespace: string, name: string) => {
      if (isDns1123Subdomain(name).length) throw new Error('Invalid service account name')
      if (isDns1123Label(namespace).length) throw new Error('Invalid service account namespace')
      return new CelAuthorizer(serviceAccountIdentity(namespace, name), a.authorize)
    },
  )
  env.registerFunction(`${G}.resource(string): ${R}`, (g: GroupCheck, resource: string) => {
    if (!resource.trim()) throw new Error('resource must not be empty')
    return new ResourceCheck(g.authorizer, g.group, resource)
  })
  env.registerFunction(`${R}.subresource(string): ${R}`, (r: ResourceCheck, subresource: string) =>
    r.with({ subresource }),
  )
  env.registerFunction(`${R}.namespace(string): ${R}`, (r: ResourceCheck, namespace: string) =>
    r.with({ namespace }),
  )
  env.registerFunction(`${R}.name(string): ${R}`, (r: ResourceCheck, name: string) =>
    r.with({ name }),
  )
  env.registerFunction(
    `${R}.fieldSelector(string): ${R}`,
    (r: ResourceCheck, fieldSelector: string) => r.with({ fieldSelector }),
  )
  env.registerFunction(
    `${R}.labelSelector(string): ${R}`,
    (r: ResourceCheck, labelSelector: string) => r.with({ labelSelector }),
  )
  env.registerFunction(`${P}.check(string): ${D}`, (p: PathCheck, verb: string) =>
    decide(p.authorizer, { verb, path: p.path }),
  )
  env.registerFunction(`${R}.check(string): ${D}`, (r: ResourceCheck, verb: string) =>
    decide(r.authorizer, resourceAttributes(r, verb)),
  )
  env.registerFunction(
    `${D}.allowed(): bool`,
    (d: CelDecision) => d.decision.allowed && !d.decision.error,
  )
  env.registerFunction(`${D}.reason(): string`, (d: CelDecision) => d.decision.reason)
  env.registerFunction(`${D}.errored(): bool`, (d: CelDecision) => d.decision.error !== undefined)
  env.registerFunction(`${D}.error(): string`, (d: CelDecision) => d.decision.error ?? '')
}
