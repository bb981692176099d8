import { describe, it, expect } from 'vitest'
import { findResource } from '../../../../src/apis/registry'
import { prepareForCreate, prepareForUpdate, validateUpdate } from '../../../../src/apis/strategy'
import { podUpdateMessage } from '../../../../src/apis/validation/pod-update'
import type { KubeObject, StatusCause } from '../../../../src/apimachinery/types'
import { podManifest } from '../../../helpers'

const def = findResource('', 'v1', 'pods')!

/** A pod as the store keeps it after create (defaults applied). */
function stored(
  spec: Record<string, unknown> = {},
  annotations?: Record<string, string>,
): KubeObject {
  const pod = podManifest('p', {
    namespace: 'default',
    annotations,
    containers: [{ name: 'app', image: 'busybox:1.36', command: ['sleep', '3600'] }],
    spec,
  })
  return prepareForCreate(def, pod, Date.now())
}

/** The update `change` makes to a copy of the stored pod, as the store prepares it, then its causes. */
function update(
  old: KubeObject,
  change: (spec: any, pod: KubeObject) => void,
  subresource?: 'status' | 'ephemeralcontainers',
): StatusCause[] {
  const incoming = structuredClone(old)
  change(incoming.spec, incoming)
  const next = prepareForUpdate(def, old, incoming, subresource)
  return validateUpdate(def, old, next, subresource)
}

const refusedSpec = (causes: StatusCause[]) =>
  causes.find((c) => c.field === 'spec' && c.reason === 'FieldValueForbidden')

describe('a pod update', () => {
  it('may change container and init container images', () => {
    const pod = stored({ initContainers: [{ name: 'init', image: 'busybox:1.36' }] })
    expect(
      update(pod, (s) => {
        s.containers[0].image = 'busybox:1.37'
        s.initContainers[0].image = 'alpine:3'
      }),
    ).toEqual([])
  })

  it('may not change the command, privilege, host network, node or service account', () => {
    const pod = stored()
    const changes: [string, (s: any) => void, string][] = [
      ['command', (s) => (s.containers[0].command = ['sleep', '10']), 'containers[0].command'],
      [
        'privileged',
        (s) => (s.containers[0].securityContext = { privileged: true }),
        'containers[0].securityContext',
      ],
      ['hostNetwork', (s) => (s.hostNetwork = true), 'hostNetwork'],
      ['nodeName', (s) => (s.nodeName = 'elsewhere'), 'nodeName'],
      ['serviceAccountName', (s) => (s.serviceAccountName = 'admin'), 'serviceAccountName'],
    ]
    for (const [what, change, path] of changes) {
      const causes = update(pod, change)
      expect(causes, what).toHaveLength(1)
      const cause = refusedSpec(causes)!
      expect(
        cause.message?.startsWith(`Forbidden: ${podUpdateMessage}\n  core.PodSpec{\n`),
        what,
      ).toBe(true)
      expect(cause.message, what).toContain(`- \t${path}: `)
      expect(cause.message, what).toContain(`+ \t${path}: `)
    }
  })

  it('names the changed field with both values, and not the allowed image change beside it', () => {
    const causes = update(stored(), (s) => {
      s.containers[0].image = 'busybox:1.37'
      s.containers[0].command = ['sleep', '10']
    })
    const message = refusedSpec(causes)!.message ?? ''
    expect(message).toContain(
      '- \tcontainers[0].command: ["sleep","3600"]\n+ \tcontainers[0].command: ["sleep","10"]',
    )
    expect(message.slice(message.indexOf('\n'))).not.toContain('image')
  })

  it('refuses adding or removing a container, and an empty image', () => {
    const pod = stored()
    expect(update(pod, (s) => s.containers.push({ name: 'side', image: 'busybox' }))).toEqual([
      {
        field: 'spec.containers',
        reason: 'FieldValueForbidden',
        message: 'Forbidden: pod updates may not add or remove containers',
      },
    ])
    expect(update(pod, (s) => (s.containers[0].image = ''))).toContainEqual({
      field: 'spec.containers[0].image',
      reason: 'FieldValueRequired',
      message: 'Required value',
    })
    expect(update(pod, (s) => (s.containers[0].image = ' busybox'))).toContainEqual({
      field: 'spec.containers[0].image',
      reason: 'FieldValueInvalid',
      message: 'Invalid value: " busybox": must not have leading or trailing whitespace',
    })
  })

  it('may set activeDeadlineSeconds, then only lower it, never unset it', () => {
    const pod = stored()
    expect(update(pod, (s) => (s.activeDeadlineSeconds = 60))).toEqual([])
    const bounded = stored({ activeDeadlineSeconds: 60 })
    expect(update(bounded, (s) => (s.activeDeadlineSeconds = 30))).toEqual([])
    expect(update(bounded, (s) => (s.activeDeadlineSeconds = 120))).toEqual([
      {
        field: 'spec.activeDeadlineSeconds',
        reason: 'FieldValueInvalid',
        message: 'Invalid value: 120: must be less than or equal to previous value',
      },
    ])
    expect(update(bounded, (s) => delete s.activeDeadlineSeconds)).toEqual([
      {
        field: 'spec.activeDeadlineSeconds',
        reason: 'FieldValueInvalid',
        message: 'Invalid value: null: must not update from a positive integer to nil value',
      },
    ])
  })

  it('may add tolerations and change tolerationSeconds, never drop or alter one', () => {
    const pod = stored({
      tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
    })
    expect(
      update(pod, (s) =>
        s.tolerations.push({ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }),
      ),
    ).toEqual([])
    expect(update(pod, (s) => (s.tolerations[0].tolerationSeconds = 10))).toEqual([])
    const modified = {
      field: 'spec.tolerations',
      reason: 'FieldValueForbidden',
      message: 'Forbidden: existing toleration can not be modified except its tolerationSeconds',
    }
    expect(update(pod, (s) => (s.tolerations = []))).toEqual([modified])
    expect(update(pod, (s) => (s.tolerations[0].effect = 'NoSchedule'))).toContainEqual(modified)
  })

  it('may remove scheduling gates, never add one', () => {
    const pod = stored({ schedulingGates: [{ name: 'a' }, { name: 'b' }] })
    expect(update(pod, (s) => s.schedulingGates.shift())).toEqual([])
    expect(update(pod, (s) => s.schedulingGates.push({ name: 'c' }))).toEqual([
      {
        field: 'spec.schedulingGates[2].name',
        reason: 'FieldValueForbidden',
        message: "Forbidden: only deletion is allowed, but found new scheduling gate 'c'",
      },
    ])
  })

  it('lets a gated pod gain node selector labels and node affinity requirements only', () => {
    const term = { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }
    const gated = stored({
      schedulingGates: [{ name: 'wait' }],
      nodeSelector: { disk: 'ssd' },
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [term] },
        },
      },
    })
    expect(update(gated, (s) => (s.nodeSelector.gpu = 'yes'))).toEqual([])
    expect(update(gated, (s) => (s.nodeSelector.disk = 'hdd'))).toEqual([
      {
        field: 'spec.nodeSelector',
        reason: 'FieldValueInvalid',
        message:
          'Invalid value: map[string]string{"disk":"hdd"}: only additions to spec.nodeSelector are allowed (no mutations or deletions)',
      },
    ])
    const terms = (s: any) =>
      s.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms
    expect(
      update(gated, (s) => terms(s)[0].matchExpressions.push({ key: 'rack', operator: 'Exists' })),
    ).toEqual([])
    const mutated = update(gated, (s) => (terms(s)[0].matchExpressions[0].values = ['b']))
    expect(mutated.map((c) => c.field)).toEqual([
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]',
    ])
    expect(mutated[0]!.message).toContain('only additions are allowed (no mutations or deletions)')
    const ungated = stored({ nodeSelector: { disk: 'ssd' } })
    expect(refusedSpec(update(ungated, (s) => (s.nodeSelector.gpu = 'yes')))).toBeDefined()
  })

  it('may set terminationGracePeriodSeconds to 1 only from a negative value', () => {
    expect(
      update(
        stored({ terminationGracePeriodSeconds: -1 }),
        (s) => (s.terminationGracePeriodSeconds = 1),
      ),
    ).toEqual([])
    expect(
      refusedSpec(update(stored(), (s) => (s.terminationGracePeriodSeconds = 1))),
    ).toBeDefined()
  })

  it('reads zero values and quantity spellings as upstream does', () => {
    const pod = stored({
      containers: [
        {
          name: 'app',
          image: 'busybox',
          args: [],
          resources: { requests: { memory: '1Gi', cpu: '500m' } },
        },
      ],
    })
    expect(
      update(pod, (s) => {
        delete s.containers[0].args
        s.containers[0].resources.requests = { memory: '1024Mi', cpu: '0.5' }
        s.nodeSelector = {}
      }),
    ).toEqual([])
  })

  it('refuses ephemeral containers written through the pod itself, not through their subresource', () => {
    const pod = stored()
    const debug = {
      name: 'debug',
      image: 'busybox',
      terminationMessagePolicy: 'File',
      imagePullPolicy: 'IfNotPresent',
      terminationMessagePath: '/dev/termination-log',
    }
    expect(refusedSpec(update(pod, (s) => (s.ephemeralContainers = [debug])))).toBeDefined()
    expect(update(pod, (s) => (s.ephemeralContainers = [debug]), 'ephemeralcontainers')).toEqual([])
  })

  it('leaves status writes and metadata changes alone', () => {
    const pod = stored()
    expect(
      update(
        pod,
        (s, p) => {
          s.nodeName = 'elsewhere'
          p.status = { phase: 'Running' }
        },
        'status',
      ),
    ).toEqual([])
    expect(update(pod, (_s, p) => (p.metadata.labels = { app: 'web' }))).toEqual([])
  })

  it('keeps the mirror pod annotation as it is', () => {
    const mirror = stored({ nodeName: 'n1' }, { 'kubernetes.io/config.mirror': 'abc' })
    expect(update(mirror, (_s, p) => (p.metadata.annotations = {}))).toEqual([
      {
        field: 'metadata.annotations[kubernetes.io/config.mirror]',
        reason: 'FieldValueForbidden',
        message: 'Forbidden: may not remove or update mirror pod annotation',
      },
    ])
    expect(
      update(
        stored(),
        (_s, p) => (p.metadata.annotations = { 'kubernetes.io/config.mirror': 'x' }),
      ),
    ).toEqual([
      {
        field: 'metadata.annotations[kubernetes.io/config.mirror]',
        reason: 'FieldValueForbidden',
        message: 'Forbidden: may not add mirror pod annotation',
      },
    ])
  })
})
