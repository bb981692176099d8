/**
 * Whether one set of rules grants everything another does, as upstream's rbac validation
 * `Covers`: each requested rule is broken into single-verb, single-resource rules, and each of
 * those must be granted by some owner rule (wildcards and `*` URL suffixes included).
 */
import type { PolicyRule } from './types'

/** The requested rules, as single-permission rules, that no owner rule grants (empty when covered). */
export function uncovered(
  owner: readonly PolicyRule[],
  requested: readonly PolicyRule[],
): PolicyRule[] {
  const missing: PolicyRule[] = []
  for (const r of requested)
    for (const simple of breakdown(r))
      if (!owner.some((o) => ruleCovers(o, simple))) missing.push(simple)
  return missing
}

/** BreakdownRule: one rule per verb × group × resource (× name), or per verb × URL. */
export function breakdown(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = []
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs) {
        const names = rule.resourceNames ?? []
        if (names.length)
          for (const name of names)
            out.push({
              verbs: [verb],
              apiGroups: [group],
              resources: [resource],
              resourceNames: [name],
            })
        else out.push({ verbs: [verb], apiGroups: [group], resources: [resource] })
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? [])
    for (const verb of rule.verbs) out.push({ verbs: [verb], nonResourceURLs: [url] })
  return out
}

const has = (list: readonly string[] | undefined, v: string) => (list ?? []).includes(v)

function allCovered(
  owner: readonly string[] | undefined,
  requested: readonly string[] | undefined,
  match: (o: string, r: string) => boolean,
): boolean {
  return (requested ?? []).every((r) => (owner ?? []).some((o) => match(o, r)))
}

/** ruleCovers: whether `owner` grants all of `req`. */
export function ruleCovers(owner: PolicyRule, req: PolicyRule): boolean {
  const verbs = has(owner.verbs, '*') || allCovered(owner.verbs, req.verbs, (o, r) => o === r)
  const groups =
    has(owner.apiGroups, '*') || allCovered(owner.apiGroups, req.apiGroups, (o, r) => o === r)
  const resources = allCovered(owner.resources, req.resources, resourceCovers)
  const urls = allCovered(owner.nonResourceURLs, req.nonResourceURLs, urlCovers)
  // An owner rule limited to names covers only requests limited to those names.
  const names =
    !(owner.resourceNames ?? []).length ||
    ((req.resourceNames ?? []).length > 0 &&
      allCovered(owner.resourceNames, req.resourceNames, (o, r) => o === r))
  return verbs && groups && resources && urls && names
}

function resourceCovers(owner: string, req: string): boolean {
  if (owner === '*' || owner === req) return true
  // `*/scale` covers the scale subresource of every resource.
  const slash = req.indexOf('/')
  return owner.startsWith('*/') && slash >= 0 && owner.slice(1) === req.slice(slash)
}

function urlCovers(owner: string, req: string): boolean {
  if (owner === req || owner === '*') return true
  return owner.endsWith('*') && req.startsWith(owner.slice(0, -1))
}

/** A rule as upstream's CompactString prints it in escalation errors: `{APIGroups:["apps"], Resources:["deployments"], Verbs:["get"]}`. */
export function compactRule(rule: PolicyRule): string {
  const q = (list: readonly string[]) => `[${list.map((s) => JSON.stringify(s)).join(' ')}]`
  const parts: string[] = []
  if (rule.apiGroups?.length) parts.push(`APIGroups:${q(rule.apiGroups)}`)
  if (rule.resources?.length) parts.push(`Resources:${q(rule.resources)}`)
  if (rule.resourceNames?.length) parts.push(`ResourceNames:${q(rule.resourceNames)}`)
  if (rule.nonResourceURLs?.length) parts.push(`NonResourceURLs:${q(rule.nonResourceURLs)}`)
  if (rule.verbs.length) parts.push(`Verbs:${q(rule.verbs)}`)
  return `{${parts.join(', ')}}`
}
