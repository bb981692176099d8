import type { KubeObject } from './types'
import { matchesLabels } from './labels'
import { fieldValuesFor, matchesFields, parseFieldSelector, validateFieldSelector } from './fields'
import { parseLabelSelector } from './label-selector-parser'

/** What a list or watch asks for: one namespace (or all), and label and field selectors. */
export interface FilterSpec {
  namespace?: string
  labelSelector?: string
  fieldSelector?: string
}

export type ObjectPredicate = (obj: KubeObject) => boolean

/** Compiles selectors once; throws SelectorError for a malformed or unsupported selector. */
export function compileFilter(resource: string, spec: FilterSpec): ObjectPredicate | undefined {
  const labels = spec.labelSelector ? parseLabelSelector(spec.labelSelector) : undefined
  const fields = spec.fieldSelector ? parseFieldSelector(spec.fieldSelector) : undefined
  if (fields) validateFieldSelector(resource, fields)
  if (!labels && !fields) return undefined
  return (obj) => {
    if (labels && !matchesLabels(labels, obj.metadata.labels)) return false
    if (fields && !matchesFields(fields, fieldValuesFor(resource, obj))) return false
    return true
  }
}
