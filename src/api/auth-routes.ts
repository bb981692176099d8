import type { Hono } from 'hono'
import type { Env } from '../env'
import { serveSelfSubjectAccessReview, serveSelfSubjectRulesReview } from './access-review'
import { serveSelfSubjectReview } from './self-review'
import { serveTokenRequest } from './token-request'

/**
 * The create-only authentication and authorization endpoints (`kubectl auth whoami|can-i`,
 * `kubectl create token`); registered ahead of the generic resource routes, which have no store
 * for them.
 */
export function registerAuthRoutes(app: Hono<{ Bindings: Env }>): void {
  app.all('/apis/authentication.k8s.io/v1/selfsubjectreviews', (c) => serveSelfSubjectReview(c.req.raw))
  app.all('/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', (c) => serveSelfSubjectAccessReview(c.req.raw, c.env))
  app.all('/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', (c) => serveSelfSubjectRulesReview(c.req.raw))
  app.all('/api/v1/namespaces/:namespace/serviceaccounts/:name/token', (c) => serveTokenRequest(c.req.raw, c.env, c.req.param('namespace'), c.req.param('name')))
}
