import { type FieldCause, forbidden, invalid, required } from '../../apimachinery/field-errors'
import {
  type LabelSelector,
  SelectorError,
  selectorFromLabelSelector,
} from '../../apimachinery/labels'
import {
  type MetaSelector,
  type PodTemplate,
  type SelectorRequirement,
  labelSelector,
  read,
} from './shapes'
import { goQuote, goStringMap, goStringSlice } from '../../apimachinery/go-format'
import {
  isValidLabelValue,
  validateLabels,
  validateQualifiedName,
} from '../../apimachinery/field-formats'

/** Label selectors in specs, and what controllers require of them. */

export function goSelectorRequirement(r: SelectorRequirement): string {
  return `v1.LabelSelectorRequirement{Key:${goQuote(r.key)}, Operator:${goQuote(r.operator)}, Values:${goStringSlice(r.values ?? null)}}`
}

/** %#v of a metav1.LabelSelector, as upstream prints a bad spec.selector. */
export function goLabelSelector(sel: MetaSelector): string {
  const s = sel ?? {}
  const exprs = s.matchExpressions
  const exprText = exprs
    ? `[]v1.LabelSelectorRequirement{${exprs.map(goSelectorRequirement).join(', ')}}`
    : '[]v1.LabelSelectorRequirement(nil)'
  return `v1.LabelSelector{MatchLabels:${goStringMap(s.matchLabels ?? null)}, MatchExpressions:${exprText}}`
}

/** metav1 ValidateLabelSelector: label keys and values, operators and their value counts. */
export function validateMetaLabelSelector(selector: unknown, path: string): FieldCause[] {
  const sel = read(labelSelector, selector)
  if (!sel) return []
  const causes = validateLabels(sel.matchLabels, `${path}.matchLabels`)
  for (const [i, expr] of (sel.matchExpressions ?? []).entries()) {
    const at = `${path}.matchExpressions[${i}]`
    const values = expr.values ?? []
    switch (expr.operator) {
      case 'In':
      case 'NotIn':
        if (!values.length)
          causes.push(
            required(`${at}.values`, "must be specified when `operator` is 'In' or 'NotIn'"),
          )
        break
      case 'Exists':
      case 'DoesNotExist':
        if (values.length)
          causes.push(
            forbidden(
              `${at}.values`,
              "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
            ),
          )
        break
      default:
        causes.push(invalid(`${at}.operator`, expr.operator, 'not a valid selector operator'))
    }
    causes.push(...validateQualifiedName(expr.key, `${at}.key`))
    values.forEach((v, j) =>
      causes.push(...isValidLabelValue(v).map((m) => invalid(`${at}.values[${j}]`, v, m))),
    )
  }
  return causes
}

// A selector that must be present and not empty, as Deployments, ReplicaSets and StatefulSets need.
export function requiredSelector(sel: MetaSelector, path: string, kindWord: string): FieldCause[] {
  if (!sel) return [required(path)]
  const causes = validateMetaLabelSelector(sel, path)
  if (Object.keys(sel.matchLabels ?? {}).length + (sel.matchExpressions ?? []).length === 0) {
    causes.push(
      invalid(path, sel, `empty selector is invalid for ${kindWord}`, goLabelSelector(sel)),
    )
  }
  return causes
}

export function toSelector(sel: MetaSelector): LabelSelector | undefined {
  try {
    return selectorFromLabelSelector(sel)
  } catch (e) {
    if (e instanceof SelectorError) return undefined
    throw e
  }
}

export function selectorMismatch(template: PodTemplate | undefined, path: string): FieldCause {
  const labels = template?.metadata?.labels ?? null
  return invalid(
    `${path}.metadata.labels`,
    labels,
    '`selector` does not match template `labels`',
    goStringMap(labels),
  )
}
