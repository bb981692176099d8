/**
 * MutatingWebhookConfiguration and ValidatingWebhookConfiguration: the fields the server acts on,
 * their defaults (SetDefaults_*Webhook) and validation (ValidateValidatingWebhookConfiguration and
 * its mutating twin in k8s.io/kubernetes/pkg/apis/admissionregistration/validation).
 */
import type { KubeObject } from '../../apimachinery/types'
import {
  duplicate,
  invalid,
  notSupported,
  required,
  type FieldCause,
} from '../../apimachinery/field-errors'
import { validateDns1123Subdomain } from '../../apimachinery/field-formats'
import { validateMetaLabelSelector } from '../validation/selectors'
import type { MetaLabelSelector } from '../../apimachinery/labels'
import { webhookScope } from './cel'
import { validateMatchConditions, type MatchCondition } from './match-conditions'

export interface WebhookRule {
  operations?: string[]
  apiGroups?: string[]
  apiVersions?: string[]
  resources?: string[]
  scope?: string
}

export interface Webhook {
  name: string
  clientConfig: {
    url?: string
    service?: { namespace: string; name: string; path?: string; port?: number }
    caBundle?: string
  }
  rules?: WebhookRule[]
  failurePolicy?: 'Fail' | 'Ignore'
  matchPolicy?: 'Exact' | 'Equivalent'
  namespaceSelector?: MetaLabelSelector
  objectSelector?: MetaLabelSelector
  sideEffects?: string
  timeoutSeconds?: number
  admissionReviewVersions?: string[]
  reinvocationPolicy?: 'Never' | 'IfNeeded'
  matchConditions?: MatchCondition[]
}

export interface WebhookConfiguration extends KubeObject {
  webhooks?: Webhook[]
}

const operations = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE']
const scopes = ['*', 'Cluster', 'Namespaced']

/** The defaults upstream fills in for every webhook of a configuration. */
export function defaultWebhookConfiguration(kind: string, obj: KubeObject): void {
  for (const hook of (obj as WebhookConfiguration).webhooks ?? []) {
    if (!hook || typeof hook !== 'object') continue
    hook.failurePolicy ??= 'Fail'
    hook.matchPolicy ??= 'Equivalent'
    hook.namespaceSelector ??= {}
    hook.objectSelector ??= {}
    hook.timeoutSeconds ??= 10
    if (kind === 'MutatingWebhookConfiguration') hook.reinvocationPolicy ??= 'Never'
    for (const rule of hook.rules ?? []) if (rule && typeof rule === 'object') rule.scope ??= '*'
    const service = hook.clientConfig?.service
    if (service && typeof service === 'object') service.port ??= 443
  }
}

export function validateWebhookConfiguration(kind: string, obj: KubeObject): FieldCause[] {
  const causes: FieldCause[] = []
  const seen = new Set<string>()
  for (const [i, hook] of ((obj as WebhookConfiguration).webhooks ?? []).entries()) {
    const at = `webhooks[${i}]`
    if (!hook.name) causes.push(required(`${at}.name`))
    else {
      causes.push(...validateDns1123Subdomain(hook.name, `${at}.name`))
      if (hook.name.split('.').length < 3)
        causes.push(
          invalid(
            `${at}.name`,
            hook.name,
            'should be a domain with at least three segments separated by dots',
          ),
        )
      if (seen.has(hook.name)) causes.push(duplicate(`${at}.name`, hook.name))
      seen.add(hook.name)
    }
    for (const [j, rule] of (hook.rules ?? []).entries())
      causes.push(...validateRule(rule, `${at}.rules[${j}]`))
    if (hook.failurePolicy !== undefined && !['Fail', 'Ignore'].includes(hook.failurePolicy))
      causes.push(notSupported(`${at}.failurePolicy`, hook.failurePolicy, ['Fail', 'Ignore']))
    if (hook.matchPolicy !== undefined && !['Equivalent', 'Exact'].includes(hook.matchPolicy))
      causes.push(notSupported(`${at}.matchPolicy`, hook.matchPolicy, ['Equivalent', 'Exact']))
    if (hook.sideEffects === undefined)
      causes.push(required(`${at}.sideEffects`, 'must specify one of None, NoneOnDryRun'))
    else if (!['None', 'NoneOnDryRun'].includes(hook.sideEffects))
      causes.push(notSupported(`${at}.sideEffects`, hook.sideEffects, ['None', 'NoneOnDryRun']))
    if (
      hook.timeoutSeconds !== undefined &&
      (hook.timeoutSeconds < 1 || hook.timeoutSeconds > 30)
    ) {
      causes.push(
        invalid(
          `${at}.timeoutSeconds`,
          hook.timeoutSeconds,
          'the timeout value must be between 1 and 30 seconds',
        ),
      )
    }
    const versions = hook.admissionReviewVersions ?? []
    if (!versions.length)
      causes.push(required(`${at}.admissionReviewVersions`, 'must specify one of v1, v1beta1'))
    else if (!versions.includes('v1')) {
      causes.push(
        invalid(
          `${at}.admissionReviewVersions`,
          versions,
          'must include at least one of v1 (the only AdmissionReview version this server sends)',
        ),
      )
    }
    if (
      kind === 'MutatingWebhookConfiguration' &&
      hook.reinvocationPolicy !== undefined &&
      !['Never', 'IfNeeded'].includes(hook.reinvocationPolicy)
    ) {
      causes.push(
        notSupported(`${at}.reinvocationPolicy`, hook.reinvocationPolicy, ['IfNeeded', 'Never']),
      )
    }
    causes.push(
      ...validateMatchConditions(hook.matchConditions, `${at}.matchConditions`, webhookScope),
    )
    causes.push(...validateMetaLabelSelector(hook.namespaceSelector, `${at}.namespaceSelector`))
    causes.push(...validateMetaLabelSelector(hook.objectSelector, `${at}.objectSelector`))
    causes.push(...validateClientConfig(hook.clientConfig ?? {}, `${at}.clientConfig`))
  }
  return causes
}

export function validateRule(rule: WebhookRule, at: string): FieldCause[] {
  const causes: FieldCause[] = []
  const ops = rule.operations ?? []
  if (!ops.length) causes.push(required(`${at}.operations`))
  if (ops.length > 1 && ops.includes('*'))
    causes.push(
      invalid(`${at}.operations`, ops, "if '*' is present, must not specify other operations"),
    )
  for (const [k, op] of ops.entries())
    if (!operations.includes(op))
      causes.push(notSupported(`${at}.operations[${k}]`, op, operations))
  for (const field of ['apiGroups', 'apiVersions'] as const) {
    const values = rule[field] ?? []
    if (!values.length) causes.push(required(`${at}.${field}`))
    if (values.length > 1 && values.includes('*'))
      causes.push(
        invalid(
          `${at}.${field}`,
          values,
          "if '*' is present, must not specify other " +
            (field === 'apiGroups' ? 'API groups' : 'API versions'),
        ),
      )
  }
  for (const [k, version] of (rule.apiVersions ?? []).entries())
    if (!version) causes.push(required(`${at}.apiVersions[${k}]`))
  causes.push(...validateResources(rule.resources ?? [], `${at}.resources`))
  if (rule.scope !== undefined && !scopes.includes(rule.scope))
    causes.push(notSupported(`${at}.scope`, rule.scope, scopes))
  return causes
}

/**
 * validateResources: `*` may stand beside subresources (`pods/exec`) but not beside a resource of
 * its own (`pods`), `*\/*` beside nothing, `x/*` beside another `x/…` and `*\/y` beside another `…/y`.
 * As upstream, whether a plain resource stands beside `*` is read from the last plain entry.
 */
export function validateResources(resources: string[], at: string): FieldCause[] {
  const causes: FieldCause[] = []
  if (!resources.length) causes.push(required(at))
  const wildcardSubresources = new Set<string>()
  const wildcardResources = new Set<string>()
  let doubleWildcard = false
  let singleWildcard = false
  let plainResource = false
  for (const [i, entry] of resources.entries()) {
    if (!entry) {
      causes.push(required(`${at}[${i}]`))
      continue
    }
    if (entry === '*/*') doubleWildcard = true
    if (entry === '*') singleWildcard = true
    const slash = entry.indexOf('/')
    if (slash < 0) {
      plainResource = entry !== '*'
      continue
    }
    const [res, sub] = [entry.slice(0, slash), entry.slice(slash + 1)]
    if (wildcardSubresources.has(res))
      causes.push(
        invalid(`${at}[${i}]`, entry, `if '${res}/*' is present, must not specify ${entry}`),
      )
    if (wildcardResources.has(sub))
      causes.push(
        invalid(`${at}[${i}]`, entry, `if '*/${sub}' is present, must not specify ${entry}`),
      )
    if (sub === '*') wildcardSubresources.add(res)
    if (res === '*') wildcardResources.add(sub)
  }
  if (resources.length > 1 && doubleWildcard)
    causes.push(invalid(at, resources, "if '*/*' is present, must not specify other resources"))
  if (singleWildcard && plainResource)
    causes.push(
      invalid(
        at,
        resources,
        "if '*' is present, must not specify other resources without subresources",
      ),
    )
  return causes
}

function validateClientConfig(config: Webhook['clientConfig'], at: string): FieldCause[] {
  const { url, service } = config
  if ((url === undefined) === (service === undefined))
    return [required(at, 'exactly one of url or service is required')]
  if (url !== undefined) {
    let parsed: URL
    try {
      parsed = new URL(url)
    } catch {
      return [invalid(`${at}.url`, url, 'host must be specified')]
    }
    const causes: FieldCause[] = []
    if (parsed.protocol !== 'https:')
      causes.push(invalid(`${at}.url`, url, "'https' is the only allowed URL scheme"))
    if (!parsed.hostname) causes.push(invalid(`${at}.url`, url, 'host must be specified'))
    if (parsed.username || parsed.password)
      causes.push(invalid(`${at}.url`, url, 'user information is not permitted in the URL'))
    if (parsed.hash)
      causes.push(invalid(`${at}.url`, url, 'fragments are not permitted in the URL'))
    if (parsed.search)
      causes.push(invalid(`${at}.url`, url, 'query parameters are not permitted in the URL'))
    return causes
  }
  const causes: FieldCause[] = []
  if (!service!.name) causes.push(required(`${at}.service.name`, 'service name is required'))
  if (!service!.namespace)
    causes.push(required(`${at}.service.namespace`, 'service namespace is required'))
  if (service!.path !== undefined && !service!.path.startsWith('/'))
    causes.push(invalid(`${at}.service.path`, service!.path, "must start with a '/'"))
  const port = service!.port
  if (port !== undefined && (port < 1 || port > 65535))
    causes.push(
      invalid(
        `${at}.service.port`,
        port,
        'port is not valid: must be between 1 and 65535, inclusive',
      ),
    )
  return causes
}
