import { apiVersionOf } from '../registry'
import type { ResourceDef } from '../resource-def'

/**
 * A stored custom object as the requested version shows it. CRDs convert with the `None`
 * strategy, which changes apiVersion only; a CRD with one version never needs it.
 */
export function asRequestedVersion(def: ResourceDef, text: string): string {
  if (!def.custom?.multiVersion) return text
  return withApiVersion(text, apiVersionOf(def))
}

export function withApiVersion(text: string, apiVersion: string): string {
  const obj = JSON.parse(text) as { apiVersion?: string }
  if (obj.apiVersion === apiVersion) return text
  obj.apiVersion = apiVersion
  return JSON.stringify(obj)
}
