import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import { validateNamespace } from '../../../../src/admission/pod-security/decide'
import { existingPodWarnings } from '../../../../src/admission/pod-security/namespace-pods'
import {
  defaultPodSecuritySettings,
  parsePodSecuritySettings,
} from '../../../../src/apis/pod-security/settings'
import { podManifest } from '../../../helpers'

const ns = (labels: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name: 'team', labels },
})
const enforce = (level: string, version?: string) => ({
  'pod-security.kubernetes.io/enforce': level,
  ...(version ? { 'pod-security.kubernetes.io/enforce-version': version } : {}),
})
const s = defaultPodSecuritySettings()
const exemptTeam = parsePodSecuritySettings({
  EDGEPLANE_POD_SECURITY_EXEMPT_NAMESPACES: 'team',
}).settings

describe('namespace labels', () => {
  it('must be valid on create: 422 naming the label', () => {
    const decision = validateNamespace(
      s,
      ns({ 'pod-security.kubernetes.io/enforce': 'strict' }),
      undefined,
    )
    expect(decision).toMatchObject({
      verdict: {
        refused: {
          code: 422,
          reason: 'Invalid',
          message:
            'Namespace "team" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted',
          details: {
            name: 'team',
            kind: 'Namespace',
            causes: [
              {
                reason: 'FieldValueInvalid',
                field: 'metadata.labels[pod-security.kubernetes.io/enforce]',
              },
            ],
          },
        },
      },
    })
    expect(validateNamespace(s, ns(enforce('restricted', 'v1.30')), undefined)).toEqual({
      verdict: { warnings: [] },
    })
  })

  it('may stay invalid on an update that leaves them as they were, and may not become so', () => {
    const bad = ns({ ...enforce('baseline'), 'pod-security.kubernetes.io/warn-version': 'next' })
    expect(
      validateNamespace(s, { ...bad, metadata: { ...bad.metadata, annotations: { a: 'b' } } }, bad),
    ).toEqual({ verdict: { warnings: [] } })
    expect(validateNamespace(s, bad, ns(enforce('baseline')))).toMatchObject({
      verdict: { refused: { code: 422 } },
    })
  })

  it('check the existing pods only when the enforce level is tightened', () => {
    expect(validateNamespace(s, ns(enforce('baseline')), ns({}))).toEqual({
      checkPods: { level: 'baseline', version: 'latest' },
    })
    expect(
      validateNamespace(s, ns(enforce('restricted', 'v1.30')), ns(enforce('restricted', 'v1.29'))),
    ).toEqual({ checkPods: { level: 'restricted', version: 30 } })
    for (const [now, before] of [
      [enforce('baseline'), enforce('baseline')],
      [enforce('baseline'), enforce('restricted')],
      [enforce('privileged'), enforce('restricted')],
      [{}, enforce('baseline')],
    ]) {
      expect(validateNamespace(s, ns(now!), ns(before!))).toEqual({ verdict: { warnings: [] } })
    }
  })

  it('of an exempt namespace are said to be ignored', () => {
    const labels = {
      ...enforce('restricted', 'v1.0'),
      'pod-security.kubernetes.io/audit': 'restricted',
      'pod-security.kubernetes.io/warn': 'baseline',
    }
    expect(validateNamespace(exemptTeam, ns(labels), ns({}))).toEqual({
      verdict: {
        warnings: [
          'namespace "team" is exempt from Pod Security, and the policy (enforce=restricted:v1.0, audit=restricted:latest, warn=baseline:latest) will be ignored',
        ],
      },
    })
    expect(validateNamespace(exemptTeam, ns(enforce('restricted')), undefined)).toEqual({
      verdict: {
        warnings: [
          'namespace "team" is exempt from Pod Security, and the policy (enforce=restricted:latest) will be ignored',
        ],
      },
    })
    expect(validateNamespace(exemptTeam, ns(enforce('privileged')), undefined)).toEqual({
      verdict: { warnings: [] },
    })
  })
})

/** A pod of namespace team with this spec, controlled by ReplicaSet `owner` if given. */
const teamPod = (name: string, spec: Record<string, unknown>, owner?: string): KubeObject =>
  podManifest(name, {
    namespace: 'team',
    spec,
    metadata: owner
      ? {
          ownerReferences: [
            {
              apiVersion: 'apps/v1',
              kind: 'ReplicaSet',
              name: owner,
              uid: owner,
              controller: true,
            },
          ],
        }
      : {},
  })
const privileged = {
  containers: [{ name: 'c', image: 'busybox', securityContext: { privileged: true } }],
}
const hostNet = { hostNetwork: true, containers: [{ name: 'c', image: 'busybox' }] }
const fine = { containers: [{ name: 'c', image: 'busybox' }] }
const baseline = { level: 'baseline' as const, version: 'latest' as const }

describe('the existing pods a tightened enforce level would refuse', () => {
  it('are listed once per violation, under the first name, sorted', () => {
    const pods = [
      teamPod('web-b', privileged, 'rs1'),
      teamPod('web-a', privileged, 'rs1'),
      teamPod('db', hostNet),
      teamPod('ok', fine),
      teamPod('web-c', privileged, 'rs1'),
    ]
    expect(existingPodWarnings(s, 'team', baseline, pods)).toEqual([
      'existing pods in namespace "team" violate the new PodSecurity enforce level "baseline:latest"',
      'db: host namespaces',
      'web-a (and 2 other pods): privileged',
    ])
    expect(
      existingPodWarnings(s, 'team', baseline, [
        teamPod('a', privileged),
        teamPod('b', privileged),
      ])[1],
    ).toBe('a (and 1 other pod): privileged')
    expect(existingPodWarnings(s, 'team', baseline, [teamPod('ok', fine)])).toEqual([])
  })

  it('are checked up to the limit, one pod of each controller first, exempt runtime classes left out', () => {
    const kata = parsePodSecuritySettings({
      EDGEPLANE_POD_SECURITY_EXEMPT_RUNTIME_CLASSES: 'kata',
    }).settings
    const pods = [
      teamPod('exempt', { ...privileged, runtimeClassName: 'kata' }),
      teamPod('rs1-a', privileged, 'rs1'),
      teamPod('rs1-b', privileged, 'rs1'),
      teamPod('rs2-a', hostNet, 'rs2'),
      teamPod('single', {
        containers: [{ name: 'c', image: 'busybox', ports: [{ containerPort: 80, hostPort: 80 }] }],
      }),
    ]
    expect(
      existingPodWarnings(kata, 'team', baseline, pods, {
        maxPods: 3,
        deadline: Infinity,
        now: () => 0,
      }),
    ).toEqual([
      'new PodSecurity enforce level only checked against the first 3 of 4 existing pods',
      'existing pods in namespace "team" violate the new PodSecurity enforce level "baseline:latest"',
      'rs1-a: privileged',
      'rs2-a: host namespaces',
      'single: hostPort',
    ])
  })

  it('stop at the deadline, saying how many were checked', () => {
    let clock = 0
    const tick = () => (clock += 600)
    const warnings = existingPodWarnings(
      s,
      'team',
      baseline,
      [teamPod('a', privileged), teamPod('b', hostNet), teamPod('c', hostNet)],
      { maxPods: 3000, deadline: 1000, now: tick },
    )
    expect(warnings[0]).toBe(
      'new PodSecurity enforce level only checked against the first 2 of 3 existing pods',
    )
    expect(warnings.slice(2)).toEqual(['a: privileged', 'b: host namespaces'])
  })
})
