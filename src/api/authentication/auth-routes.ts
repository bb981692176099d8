import type { Hono } from 'hono'
import type { ApiBindings } from '../bindings'
import {
  serveLocalSubjectAccessReview,
  serveSelfSubjectAccessReview,
  serveSelfSubjectRulesReview,
  serveSubjectAccessReview,
} from '../authorization/access-review'
import { serveSelfSubjectReview } from '../authorization/self-review'
import { parsedOf } from '../http/request-info'

/**
 * The create-only authentication and authorization endpoints (`kubectl auth whoami|can-i`, access
 * reviews); registered ahead of the generic resource routes, which have no store for them.
 */
export function registerAuthRoutes(app: Hono<{ Bindings: ApiBindings }>): void {
  const authz = '/apis/authorization.k8s.io/v1'
  app.all('/apis/authentication.k8s.io/v1/selfsubjectreviews', (c) =>
    serveSelfSubjectReview(c.req.raw),
  )
  app.all(`${authz}/selfsubjectaccessreviews`, (c) =>
    serveSelfSubjectAccessReview(c.req.raw, c.env),
  )
  app.all(`${authz}/selfsubjectrulesreviews`, (c) => serveSelfSubjectRulesReview(c.req.raw, c.env))
  app.all(`${authz}/subjectaccessreviews`, (c) => serveSubjectAccessReview(c.req.raw, c.env))
  app.all(`${authz}/namespaces/:namespace/localsubjectaccessreviews`, (c) =>
    serveLocalSubjectAccessReview(c.req.raw, parsedOf(c.req.raw).info!.namespace!, c.env),
  )
}
