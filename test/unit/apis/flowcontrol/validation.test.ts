import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import { findResource } from '../../../../src/apis/registry'
import { applyDefaults } from '../../../../src/apis/defaults'
import { validateObject } from '../../../../src/apis/validation/validate-object'
import { statusWriteValidation } from '../../../../src/apis/validate-status'
import {
  mandatoryFlowSchemas,
  mandatoryPriorityLevels,
  suggestedFlowSchemas,
  suggestedPriorityLevels,
} from '../../../../src/apis/flowcontrol/bootstrap'
import { requiredEntropyBits } from '../../../../src/apis/flowcontrol/validate-priority-level'

const fsDef = findResource('flowcontrol.apiserver.k8s.io', 'v1', 'flowschemas')!
const plDef = findResource('flowcontrol.apiserver.k8s.io', 'v1', 'prioritylevelconfigurations')!

const flowSchema = (name: string, spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
  kind: 'FlowSchema',
  metadata: { name },
  spec,
})
const level = (name: string, spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
  kind: 'PriorityLevelConfiguration',
  metadata: { name },
  spec,
})

/** Defaults then validates, as a create does; the causes as `field: message`. */
function causes(def: typeof fsDef, obj: KubeObject): string[] {
  const o = structuredClone(obj)
  applyDefaults(def, o)
  return validateObject(def, o).map((c) => `${c.field}: ${c.message}`)
}

const everyone = [{ kind: 'Group', group: { name: 'system:authenticated' } }]
const listEvents = {
  subjects: everyone,
  resourceRules: [
    { verbs: ['list'], apiGroups: [''], resources: ['events'], namespaces: ['default'] },
  ],
}

describe('FlowSchema defaults and validation', () => {
  it('defaults matchingPrecedence to 1000 and marks the object not enforced', () => {
    const o = flowSchema('list-events', {
      priorityLevelConfiguration: { name: 'workload-low' },
      rules: [listEvents],
    })
    applyDefaults(fsDef, o)
    expect(o.spec).toMatchObject({ matchingPrecedence: 1000 })
    expect(o.metadata.annotations?.['flowcontrol.edgeplane.dev/enforced']).toMatch(
      /^false: this server does not queue/,
    )
    expect(causes(fsDef, o)).toEqual([])
  })

  it('keeps matchingPrecedence within 1..10000 and 1 for exempt alone', () => {
    const spec = (matchingPrecedence: number) => ({
      priorityLevelConfiguration: { name: 'x' },
      matchingPrecedence,
      rules: [listEvents],
    })
    expect(causes(fsDef, flowSchema('a', spec(-5)))).toEqual([
      'spec.matchingPrecedence: Invalid value: -5: must be a positive value',
    ])
    expect(causes(fsDef, flowSchema('a', spec(10001)))).toEqual([
      'spec.matchingPrecedence: Invalid value: 10001: must not be greater than 10000',
    ])
    expect(causes(fsDef, flowSchema('a', spec(1)))).toEqual([
      "spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1",
    ])
    expect(causes(fsDef, flowSchema('a', spec(10000)))).toEqual([])
  })

  it('requires a priority level reference and refuses an unknown distinguisher method', () => {
    expect(
      causes(
        fsDef,
        flowSchema('a', {
          priorityLevelConfiguration: {},
          distinguisherMethod: { type: 'ByHost' },
          rules: [listEvents],
        }),
      ),
    ).toEqual([
      'spec.distinguisherMethod.type: Unsupported value: flowcontrol.FlowDistinguisherMethod{Type:"ByHost"}: supported values: "ByNamespace", "ByUser"',
      'spec.priorityLevelConfiguration.name: Required value: must reference a priority level',
    ])
  })

  it('checks subjects as a union on their kind', () => {
    const rule = (subject: unknown) => ({
      subjects: [subject],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
    })
    const fs = (subject: unknown) =>
      flowSchema('a', { priorityLevelConfiguration: { name: 'x' }, rules: [rule(subject)] })
    expect(
      causes(
        fsDef,
        fs({ kind: 'ServiceAccount', user: { name: 'fred' }, group: { name: 'fred' } }),
      ),
    ).toEqual([
      "spec.rules[0].subjects[0].serviceAccount: Required value: serviceAccount is required when subject kind is 'ServiceAccount'",
      "spec.rules[0].subjects[0].user: Forbidden: user is forbidden when subject kind is not 'User'",
      "spec.rules[0].subjects[0].group: Forbidden: group is forbidden when subject kind is not 'Group'",
    ])
    expect(causes(fsDef, fs({ kind: 'ServiceAccount', serviceAccount: { name: '*' } }))).toEqual([
      'spec.rules[0].subjects[0].serviceAccount.namespace: Required value: must specify namespace for service account',
    ])
    expect(causes(fsDef, fs({ kind: 'Robot' }))).toEqual([
      'spec.rules[0].subjects[0].kind: Unsupported value: "Robot": supported values: "Group", "ServiceAccount", "User"',
    ])
    expect(
      causes(
        fsDef,
        flowSchema('a', {
          priorityLevelConfiguration: { name: 'x' },
          rules: [{ subjects: [], nonResourceRules: [] }],
        }),
      ),
    ).toEqual([
      'spec.rules[0].subjects: Required value: subjects must contain at least one value',
      'spec.rules[0]: Required value: at least one of resourceRules and nonResourceRules has to be non-empty',
    ])
  })

  it('checks resource and non-resource rules as upstream does', () => {
    const fs = flowSchema('a', {
      priorityLevelConfiguration: { name: 'x' },
      rules: [
        {
          subjects: everyone,
          resourceRules: [
            {
              verbs: ['*', 'create'],
              apiGroups: ['*', 'apps'],
              resources: ['*', 'pods'],
              namespaces: ['*'],
            },
            { verbs: ['list', 'steal'], apiGroups: [''], resources: ['pods'] },
            { verbs: ['get'], apiGroups: [''], resources: ['pods'], namespaces: ['Bad_NS'] },
          ],
          nonResourceRules: [
            { verbs: ['get'], nonResourceURLs: ['/healthz/*', 'healthz', '/hea*', '/a//b'] },
          ],
        },
      ],
    })
    expect(causes(fsDef, fs)).toEqual([
      `spec.rules[0].resourceRules[0].verbs: Invalid value: []string{"*", "create"}: if '*' is present, must not specify other verbs`,
      `spec.rules[0].resourceRules[0].apiGroups: Invalid value: []string{"*", "apps"}: if '*' is present, must not specify other api groups`,
      `spec.rules[0].resourceRules[0].resources: Invalid value: []string{"*", "pods"}: if '*' is present, must not specify other resources`,
      'spec.rules[0].resourceRules[1].verbs: Unsupported value: []string{"list", "steal"}: supported values: "create", "delete", "deletecollection", "get", "list", "patch", "proxy", "update", "watch"',
      'spec.rules[0].resourceRules[1].namespaces: Required value: resource rules that are not cluster scoped must supply at least one namespace',
      expect.stringMatching(
        /^spec\.rules\[0\]\.resourceRules\[2\]\.namespaces\[0\]: Invalid value: "Bad_NS": each member of this list must be '\*' or a DNS-1123 label; a lowercase RFC 1123 label/,
      ),
      'spec.rules[0].nonResourceRules[0].nonResourceURLs[1]: Invalid value: "healthz": must start with slash',
      'spec.rules[0].nonResourceRules[0].nonResourceURLs[2]: Invalid value: "/hea*": wildcard can only do suffix matching',
      'spec.rules[0].nonResourceRules[0].nonResourceURLs[3]: Invalid value: "/a//b": must not contain double slash',
    ])
  })

  it('accepts every bootstrap object, and keeps the mandatory ones to their fixed spec', () => {
    for (const o of [...mandatoryFlowSchemas, ...suggestedFlowSchemas])
      expect(causes(fsDef, o), o.metadata.name).toEqual([])
    for (const o of [...mandatoryPriorityLevels, ...suggestedPriorityLevels])
      expect(causes(plDef, o), o.metadata.name).toEqual([])
    const exempt = structuredClone(mandatoryFlowSchemas[0]!)
    ;(exempt.spec as any).rules[0].subjects.push({ kind: 'User', user: { name: 'me' } })
    expect(causes(fsDef, exempt)).toEqual([
      expect.stringMatching(
        /^spec: Invalid value: .*: spec of 'exempt' must equal the fixed value$/,
      ),
    ])
  })

  it('validates status conditions on a status write', () => {
    const old = flowSchema('a', { priorityLevelConfiguration: { name: 'x' }, rules: [listEvents] })
    const next = {
      ...old,
      status: {
        conditions: [
          { type: 'Dangling', status: 'True' },
          { type: 'Dangling', status: 'False' },
          { status: 'True' },
        ],
      },
    }
    expect(statusWriteValidation(fsDef, old)!(next).map((c) => `${c.field}: ${c.message}`)).toEqual(
      [
        'status.conditions[1].type: Duplicate value: "Dangling"',
        'status.conditions[2].type: Required value: must not be empty',
      ],
    )
  })
})

describe('PriorityLevelConfiguration defaults and validation', () => {
  it('defaults a Limited level as v1 does: shares 30 (an explicit 0 stays), lendablePercent 0, queuing 64/8/50', () => {
    const o = level('batch', {
      type: 'Limited',
      limited: { limitResponse: { type: 'Queue', queuing: {} } },
    })
    applyDefaults(plDef, o)
    expect(o.spec).toEqual({
      type: 'Limited',
      limited: {
        nominalConcurrencyShares: 30,
        lendablePercent: 0,
        limitResponse: {
          type: 'Queue',
          queuing: { queues: 64, handSize: 8, queueLengthLimit: 50 },
        },
      },
    })
    const jail = level('jail', {
      type: 'Limited',
      limited: { nominalConcurrencyShares: 0, limitResponse: { type: 'Reject' } },
    })
    applyDefaults(plDef, jail)
    expect((jail.spec as any).limited.nominalConcurrencyShares).toBe(0)
    expect(causes(plDef, jail)).toEqual([])
  })

  it('ties type Exempt to the name exempt and checks each union member', () => {
    expect(causes(plDef, level('free', { type: 'Exempt' }))).toEqual([
      "spec.type: Invalid value: \"Exempt\": type must be 'Exempt' if and only if name is 'exempt'",
    ])
    expect(causes(plDef, level('x', { type: 'Limited', exempt: {} }))).toEqual([
      'spec.exempt: Forbidden: must be nil if the type is Limited',
      'spec.limited: Required value: must not be empty when type is Limited',
    ])
    expect(causes(plDef, level('x', { type: 'Sometimes' }))).toEqual([
      'spec.type: Unsupported value: "Sometimes": supported values: "Exempt", "Limited"',
    ])
  })

  it('checks shares, lending and borrowing percentages', () => {
    const o = level('x', {
      type: 'Limited',
      limited: {
        nominalConcurrencyShares: -1,
        lendablePercent: 101,
        borrowingLimitPercent: -1,
        limitResponse: { type: 'Reject', queuing: { queues: 1 } },
      },
    })
    expect(causes(plDef, o)).toEqual([
      'spec.limited.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer',
      'spec.limited.limitResponse.queuing: Forbidden: must be nil if limited.limitResponse.type is not Limited',
      'spec.limited.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive',
      'spec.limited.borrowingLimitPercent: Invalid value: -1: if specified, must be a non-negative integer',
    ])
  })

  it('checks queuing: positive limits, handSize within queues, and the shuffle-sharding entropy', () => {
    const queued = (queuing: Record<string, unknown>) =>
      level('x', { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing } } })
    expect(causes(plDef, queued({ queues: 512, handSize: 8, queueLengthLimit: 100 }))).toEqual([
      'spec.limited.limitResponse.queuing.handSize: Invalid value: 8: required entropy bits of deckSize 512 and handSize 8 should not be greater than 60',
    ])
    expect(causes(plDef, queued({ queues: 7, handSize: 8, queueLengthLimit: -1 }))).toEqual([
      'spec.limited.limitResponse.queuing.queueLengthLimit: Invalid value: -1: must be positive',
      'spec.limited.limitResponse.queuing.handSize: Invalid value: 8: should not be greater than queues (7)',
    ])
    expect(causes(plDef, queued({ queues: 2147483647, handSize: 3 }))).toEqual([
      'spec.limited.limitResponse.queuing.queues: Invalid value: 2147483647: must not be greater than 10000000',
      'spec.limited.limitResponse.queuing.handSize: Invalid value: 3: required entropy bits of deckSize 2147483647 and handSize 3 should not be greater than 60',
    ])
    expect(causes(plDef, queued({ queues: 10_000_000, handSize: 2 }))).toEqual([])
    expect(
      causes(plDef, level('x', { type: 'Limited', limited: { limitResponse: { type: 'Queue' } } })),
    ).toEqual([
      'spec.limited.limitResponse.queuing: Required value: must not be empty if limited.limitResponse.type is Limited',
    ])
    expect(requiredEntropyBits(128, 6)).toBe(42)
  })

  it('lets an administrator tune only the exempt block of the exempt level, and nothing of catch-all', () => {
    expect(
      causes(
        plDef,
        level('exempt', {
          type: 'Exempt',
          exempt: { nominalConcurrencyShares: 10, lendablePercent: 10 },
        }),
      ),
    ).toEqual([])
    expect(
      causes(
        plDef,
        level('exempt', {
          type: 'Exempt',
          exempt: { nominalConcurrencyShares: -1, lendablePercent: 101 },
        }),
      ),
    ).toEqual([
      'spec.exempt.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer',
      'spec.exempt.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive',
    ])
    expect(
      causes(
        plDef,
        level('catch-all', {
          type: 'Limited',
          limited: { nominalConcurrencyShares: 42, limitResponse: { type: 'Reject' } },
        }),
      ),
    ).toEqual([
      expect.stringMatching(
        /^spec: Invalid value: .*: spec of 'catch-all' must equal the fixed value$/,
      ),
    ])
  })

  it('forbids the v1beta3 round-trip annotation', () => {
    const o = level('x', { type: 'Limited', limited: { limitResponse: { type: 'Reject' } } })
    o.metadata.annotations = { 'flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares': '' }
    expect(causes(plDef, o)).toEqual([
      "metadata.annotations: Forbidden: annotation 'flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares' is forbidden",
    ])
  })
})
