import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import { validatePodLike, type PodRequest } from '../../../../src/admission/pod-security/decide'
import { isSignificantPodUpdate, podOf } from '../../../../src/admission/pod-security/pod-spec'
import { policyToEvaluate, type Policy } from '../../../../src/apis/pod-security/levels'
import {
  defaultPodSecuritySettings,
  parsePodSecuritySettings,
  type PodSecuritySettings,
} from '../../../../src/apis/pod-security/settings'
import { podManifest } from '../../../helpers'

const privilegedPod = (spec: Record<string, unknown> = {}): KubeObject =>
  podManifest('priv', {
    namespace: 'team',
    containers: [{ name: 'x', image: 'busybox', securityContext: { privileged: true } }],
    spec,
  })
const plainPod = (image = 'busybox'): KubeObject =>
  podManifest('plain', { namespace: 'team', containers: [{ name: 'x', image }] })

const request = (
  object: KubeObject,
  labels: Record<string, string>,
  more: Partial<PodRequest> = {},
): PodRequest => ({
  group: '',
  plural: 'pods',
  name: object.metadata.name ?? '',
  namespace: 'team',
  username: 'alice',
  object,
  labels,
  ...more,
})

const settings = (vars: Record<string, string> = {}): PodSecuritySettings => {
  const parsed = parsePodSecuritySettings(vars)
  expect(parsed.errors).toEqual([])
  return parsed.settings
}

describe('a namespace policy from its labels', () => {
  const defaults: Policy = defaultPodSecuritySettings().defaults

  it('reads each mode and version, and lets warn follow a stricter enforce level', () => {
    const { policy, errors } = policyToEvaluate(
      {
        'pod-security.kubernetes.io/enforce': 'baseline',
        'pod-security.kubernetes.io/enforce-version': 'v1.30',
      },
      defaults,
    )
    expect(errors).toEqual([])
    expect(policy.enforce).toEqual({ level: 'baseline', version: 30 })
    expect(policy.warn).toEqual({ level: 'baseline', version: 30 })
    expect(policy.audit).toEqual({ level: 'privileged', version: 'latest' })
    const ownWarn = policyToEvaluate(
      {
        'pod-security.kubernetes.io/enforce': 'restricted',
        'pod-security.kubernetes.io/warn': 'baseline',
      },
      defaults,
    ).policy
    expect(ownWarn.warn.level).toBe('baseline')
  })

  it('reads a bad enforce level as restricted and a bad warn level as privileged, naming each label', () => {
    const { policy, errors } = policyToEvaluate(
      {
        'pod-security.kubernetes.io/enforce': 'strict',
        'pod-security.kubernetes.io/warn': 'loud',
        'pod-security.kubernetes.io/audit-version': '1.30',
      },
      defaults,
    )
    expect(policy.enforce.level).toBe('restricted')
    expect(policy.warn.level).toBe('privileged')
    expect(policy.audit.version).toBe('latest')
    expect(errors.map((e) => [e.field, e.value, e.message])).toEqual([
      [
        'metadata.labels[pod-security.kubernetes.io/enforce]',
        'strict',
        'must be one of privileged, baseline, restricted',
      ],
      [
        'metadata.labels[pod-security.kubernetes.io/audit-version]',
        '1.30',
        'must be "latest" or "v1.x"',
      ],
      [
        'metadata.labels[pod-security.kubernetes.io/warn]',
        'loud',
        'must be one of privileged, baseline, restricted',
      ],
    ])
  })
})

describe('a pod refused or warned about', () => {
  it("is refused with 403 and upstream's message where enforce is baseline", () => {
    const verdict = validatePodLike(
      settings(),
      request(privilegedPod(), { 'pod-security.kubernetes.io/enforce': 'baseline' }),
      true,
    )
    expect(verdict.refused).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      message:
        'pods "priv" is forbidden: violates PodSecurity "baseline:latest": privileged (container "x" must not set securityContext.privileged=true)',
      details: { name: 'priv', kind: 'pods' },
    })
  })

  it('is warned about where only warn is set, and once when warn and enforce agree', () => {
    const warned = validatePodLike(
      settings(),
      request(plainPod(), { 'pod-security.kubernetes.io/warn': 'restricted' }),
      true,
    )
    expect(warned.refused).toBeUndefined()
    expect(warned.warnings).toEqual([
      'would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "x" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "x" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "x" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "x" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    ])
    expect(
      validatePodLike(
        settings(),
        request(plainPod(), { 'pod-security.kubernetes.io/enforce': 'baseline' }),
        true,
      ),
    ).toEqual({ warnings: [] })
    const both = validatePodLike(
      settings(),
      request(plainPod(), {
        'pod-security.kubernetes.io/enforce': 'baseline',
        'pod-security.kubernetes.io/warn': 'restricted',
      }),
      true,
    )
    expect(both.warnings).toHaveLength(1)
  })

  it('follows the cluster defaults where the namespace has no labels', () => {
    const strict = settings({ EDGEPLANE_POD_SECURITY_ENFORCE: 'baseline:v1.29' })
    expect(validatePodLike(strict, request(privilegedPod(), {}), true).refused?.message).toContain(
      'violates PodSecurity "baseline:v1.29"',
    )
    expect(
      validatePodLike(
        strict,
        request(privilegedPod(), { 'pod-security.kubernetes.io/enforce': 'privileged' }),
        true,
      ),
    ).toEqual({ warnings: [] })
    expect(validatePodLike(settings(), request(privilegedPod(), {}), true)).toEqual({
      warnings: [],
    })
  })

  it('lets exempt namespaces, usernames and runtime classes through', () => {
    const exempt = settings({
      EDGEPLANE_POD_SECURITY_ENFORCE: 'restricted',
      EDGEPLANE_POD_SECURITY_EXEMPT_NAMESPACES: 'kube-system, team',
      EDGEPLANE_POD_SECURITY_EXEMPT_USERNAMES: 'system:serviceaccount:ci:deployer',
      EDGEPLANE_POD_SECURITY_EXEMPT_RUNTIME_CLASSES: 'kata',
    })
    expect(validatePodLike(exempt, request(privilegedPod(), {}), true)).toEqual({ warnings: [] })
    const elsewhere = { namespace: 'apps' }
    expect(
      validatePodLike(exempt, request(privilegedPod(), {}, elsewhere), true).refused?.code,
    ).toBe(403)
    expect(
      validatePodLike(
        exempt,
        request(
          privilegedPod(),
          {},
          { ...elsewhere, username: 'system:serviceaccount:ci:deployer' },
        ),
        true,
      ),
    ).toEqual({ warnings: [] })
    expect(
      validatePodLike(
        exempt,
        request(privilegedPod({ runtimeClassName: 'kata' }), {}, elsewhere),
        true,
      ),
    ).toEqual({ warnings: [] })
  })

  it('evaluates an update only when it changes an image or adds an ephemeral container', () => {
    const labels = { 'pod-security.kubernetes.io/enforce': 'baseline' }
    const old = privilegedPod()
    const relabelled = { ...old, metadata: { ...old.metadata, labels: { a: 'b' } } }
    expect(validatePodLike(settings(), request(relabelled, labels, { old }), true)).toEqual({
      warnings: [],
    })
    expect(isSignificantPodUpdate(relabelled, old)).toBe(false)
    const reimaged = {
      ...old,
      spec: {
        containers: [{ name: 'x', image: 'busybox:2', securityContext: { privileged: true } }],
      },
    }
    expect(
      validatePodLike(settings(), request(reimaged, labels, { old }), true).refused?.code,
    ).toBe(403)
    const debugged = {
      ...plainPod(),
      spec: {
        ...(plainPod().spec as object),
        ephemeralContainers: [
          { name: 'debug', image: 'busybox', securityContext: { privileged: true } },
        ],
      },
    }
    expect(isSignificantPodUpdate(debugged, plainPod())).toBe(true)
    expect(
      validatePodLike(settings(), request(debugged, labels, { old: plainPod() }), true).refused
        ?.message,
    ).toBe(
      'pods "plain" is forbidden: violates PodSecurity "baseline:latest": privileged (container "debug" must not set securityContext.privileged=true)',
    )
  })
})

describe('pod-template kinds', () => {
  const deployment: KubeObject = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'team' },
    spec: {
      selector: {},
      template: { metadata: { labels: { app: 'web' } }, spec: privilegedPod().spec },
    },
  }

  it('are warned about, never refused, as upstream', () => {
    const verdict = validatePodLike(
      settings(),
      request(
        deployment,
        { 'pod-security.kubernetes.io/enforce': 'baseline' },
        { group: 'apps', plural: 'deployments' },
      ),
      false,
    )
    expect(verdict).toEqual({
      warnings: [
        'would violate PodSecurity "baseline:latest": privileged (container "x" must not set securityContext.privileged=true)',
      ],
    })
    expect(
      validatePodLike(
        settings(),
        request(
          deployment,
          { 'pod-security.kubernetes.io/audit': 'baseline' },
          { group: 'apps', plural: 'deployments' },
        ),
        false,
      ),
    ).toEqual({ warnings: [] })
  })

  it('are read where each kind keeps its template', () => {
    const cron: KubeObject = {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'c' },
      spec: { jobTemplate: { spec: { template: { spec: { hostPID: true } } } } },
    }
    expect(podOf('batch', 'cronjobs', cron)?.spec).toEqual({ hostPID: true })
    expect(
      podOf('', 'podtemplates', {
        apiVersion: 'v1',
        kind: 'PodTemplate',
        metadata: { name: 't' },
        template: { spec: { hostIPC: true } },
      })?.spec,
    ).toEqual({ hostIPC: true })
    expect(
      podOf('', 'replicationcontrollers', {
        apiVersion: 'v1',
        kind: 'ReplicationController',
        metadata: { name: 'rc' },
        spec: {},
      }),
    ).toBeUndefined()
    const template = (deployment.spec as { template: { spec: unknown } }).template
    for (const plural of ['replicasets', 'deployments', 'statefulsets', 'daemonsets'])
      expect(podOf('apps', plural, deployment)?.spec).toBe(template.spec)
    expect(podOf('batch', 'jobs', deployment)).toBeDefined()
    expect(podOf('', 'configmaps', deployment)).toBeUndefined()
  })
})

describe('the cluster settings', () => {
  it('default to privileged everywhere and nothing exempt', () => {
    expect(parsePodSecuritySettings({})).toEqual({
      settings: defaultPodSecuritySettings(),
      errors: [],
    })
  })

  it('read level or level:version, and comma-separated exemptions', () => {
    const { settings: s } = parsePodSecuritySettings({
      EDGEPLANE_POD_SECURITY_ENFORCE: 'baseline',
      EDGEPLANE_POD_SECURITY_WARN: 'restricted:v1.30',
      EDGEPLANE_POD_SECURITY_EXEMPT_RUNTIME_CLASSES: 'kata,gvisor',
    })
    expect(s.defaults.enforce).toEqual({ level: 'baseline', version: 'latest' })
    expect(s.defaults.warn).toEqual({ level: 'restricted', version: 30 })
    expect(s.exemptions.runtimeClasses).toEqual(['kata', 'gvisor'])
  })

  it('name each bad value with its variable', () => {
    expect(
      parsePodSecuritySettings({
        EDGEPLANE_POD_SECURITY_ENFORCE: 'strict',
        EDGEPLANE_POD_SECURITY_AUDIT: 'baseline:1.30',
        EDGEPLANE_POD_SECURITY_EXEMPT_NAMESPACES: 'ok,Not_A_Name,ok',
      }).errors,
    ).toEqual([
      'EDGEPLANE_POD_SECURITY_ENFORCE: level "strict" must be one of privileged, baseline, restricted',
      'EDGEPLANE_POD_SECURITY_AUDIT: version "1.30" must be "latest" or "v1.x"',
      `EDGEPLANE_POD_SECURITY_EXEMPT_NAMESPACES: "Not_A_Name": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      'EDGEPLANE_POD_SECURITY_EXEMPT_NAMESPACES: "ok" is listed twice',
    ])
  })
})
