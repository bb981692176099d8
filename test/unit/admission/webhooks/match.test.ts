import { describe, expect, it } from 'vitest'
import {
  ruleMatches,
  selectorsMatch,
  type RuleAttributes,
} from '../../../../src/admission/webhooks/match'
import type { Webhook } from '../../../../src/apis/admissionregistration/webhook-configuration'

const podCreate: RuleAttributes = {
  operation: 'CREATE',
  group: '',
  version: 'v1',
  resource: 'pods',
  subresource: '',
  namespaced: true,
  namespace: 'a',
}
const rule = (resources: string[], extra = {}) => ({
  operations: ['CREATE'],
  apiGroups: [''],
  apiVersions: ['v1'],
  resources,
  ...extra,
})

describe('webhook rules', () => {
  it('name a resource, its subresources, or every resource as upstream', () => {
    expect(ruleMatches(rule(['pods']), podCreate)).toBe(true)
    expect(ruleMatches(rule(['pods']), { ...podCreate, subresource: 'status' })).toBe(false)
    expect(ruleMatches(rule(['pods/status']), { ...podCreate, subresource: 'status' })).toBe(true)
    expect(ruleMatches(rule(['pods/*']), { ...podCreate, subresource: 'status' })).toBe(true)
    expect(ruleMatches(rule(['pods/*']), podCreate)).toBe(true)
    expect(ruleMatches(rule(['*']), podCreate)).toBe(true)
    expect(ruleMatches(rule(['*']), { ...podCreate, subresource: 'status' })).toBe(false)
    expect(ruleMatches(rule(['*/status']), { ...podCreate, subresource: 'status' })).toBe(true)
    expect(ruleMatches(rule(['*/*']), { ...podCreate, subresource: 'scale' })).toBe(true)
    expect(ruleMatches(rule(['services']), podCreate)).toBe(false)
  })

  it('match operation, group, version and scope', () => {
    expect(ruleMatches(rule(['pods']), { ...podCreate, operation: 'UPDATE' })).toBe(false)
    expect(
      ruleMatches(rule(['pods'], { operations: ['*'] }), { ...podCreate, operation: 'DELETE' }),
    ).toBe(true)
    expect(ruleMatches(rule(['pods'], { apiGroups: ['apps'] }), podCreate)).toBe(false)
    expect(ruleMatches(rule(['pods'], { apiVersions: ['v1beta1'] }), podCreate)).toBe(false)
    expect(ruleMatches(rule(['pods'], { scope: 'Cluster' }), podCreate)).toBe(false)
    expect(ruleMatches(rule(['pods'], { scope: 'Namespaced' }), podCreate)).toBe(true)
    const node = { ...podCreate, resource: 'nodes', namespaced: false, namespace: '' }
    expect(ruleMatches(rule(['nodes'], { scope: 'Namespaced' }), node)).toBe(false)
    expect(ruleMatches(rule(['nodes'], { scope: 'Cluster' }), node)).toBe(true)
  })
})

describe('webhook selectors', () => {
  const hook = (extra: Partial<Webhook>): Webhook => ({
    name: 'h.example.com',
    clientConfig: { url: 'https://h' },
    ...extra,
  })
  const obj = (labels: Record<string, string>) => ({ metadata: { name: 'x', labels } })

  it('take the namespace labels of namespaced objects, and a Namespace its own labels', () => {
    const h = hook({ namespaceSelector: { matchLabels: { env: 'prod' } } })
    expect(selectorsMatch(h, podCreate, { env: 'prod' }, obj({}))).toBe(true)
    expect(selectorsMatch(h, podCreate, { env: 'dev' }, obj({ env: 'prod' }))).toBe(false)
    const ns = { ...podCreate, resource: 'namespaces', namespaced: false, namespace: '' }
    expect(selectorsMatch(h, ns, undefined, obj({ env: 'prod' }))).toBe(true)
    expect(selectorsMatch(h, ns, undefined, obj({}))).toBe(false)
    expect(
      selectorsMatch(
        h,
        { ...podCreate, resource: 'nodes', namespaced: false, namespace: '' },
        undefined,
        obj({}),
      ),
    ).toBe(true)
  })

  it('match the object or the old object by objectSelector', () => {
    const h = hook({
      objectSelector: { matchExpressions: [{ key: 'inject', operator: 'In', values: ['yes'] }] },
    })
    expect(selectorsMatch(h, podCreate, {}, obj({ inject: 'yes' }))).toBe(true)
    expect(selectorsMatch(h, podCreate, {}, obj({}))).toBe(false)
    expect(
      selectorsMatch(h, { ...podCreate, operation: 'UPDATE' }, {}, obj({}), obj({ inject: 'yes' })),
    ).toBe(true)
    expect(
      selectorsMatch(
        h,
        { ...podCreate, operation: 'DELETE' },
        {},
        undefined,
        obj({ inject: 'yes' }),
      ),
    ).toBe(true)
  })
})
