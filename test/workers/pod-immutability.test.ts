import { describe, expect, it } from 'vitest'
import { api } from './helpers'
import { podManifest } from '../helpers'

const ns = '/api/v1/namespaces/default'
const smp = 'application/strategic-merge-patch+json'
const merge = 'application/merge-patch+json'

/** A pod with one sleeping container `app`, and these spec fields. */
const sleeper = (name: string, spec: Record<string, unknown> = {}) =>
  podManifest(name, {
    containers: [{ name: 'app', image: 'busybox:1.36', command: ['sleep', '3600'] }],
    spec,
  })

const refusal =
  'spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n'

describe('a pod once created', () => {
  it('refuses a change to its command, privilege, host network, node or service account, and stays as stored', async () => {
    await api('POST', `${ns}/pods`, sleeper('imm-spec'))
    const before = await api('GET', `${ns}/pods/imm-spec`)
    const patches: [Record<string, unknown>, string][] = [
      [
        { spec: { containers: [{ name: 'app', command: ['sh', '-c', 'id'] }] } },
        'containers[0].command: ["sh","-c","id"]',
      ],
      [
        { spec: { containers: [{ name: 'app', securityContext: { privileged: true } }] } },
        'containers[0].securityContext: {"privileged":true}',
      ],
      [{ spec: { hostNetwork: true } }, 'hostNetwork: true'],
      [{ spec: { nodeName: 'elsewhere' } }, 'nodeName: "elsewhere"'],
      [{ spec: { serviceAccountName: 'builder' } }, 'serviceAccountName: "builder"'],
    ]
    for (const [patch, shown] of patches) {
      const res = await api('PATCH', `${ns}/pods/imm-spec`, patch, smp)
      expect(res.status, JSON.stringify(patch)).toBe(422)
      expect(res.json).toMatchObject({
        kind: 'Status',
        status: 'Failure',
        reason: 'Invalid',
        code: 422,
        details: { name: 'imm-spec', kind: 'Pod' },
      })
      expect(res.json.message.startsWith(`Pod "imm-spec" is invalid: ${refusal}`)).toBe(true)
      expect(res.json.message).toContain(`+ \t${shown}`)
      expect(res.json.details.causes).toEqual([
        expect.objectContaining({ reason: 'FieldValueForbidden', field: 'spec' }),
      ])
    }
    const put = await api('PUT', `${ns}/pods/imm-spec`, {
      ...before.json,
      spec: { ...before.json.spec, hostPID: true },
    })
    expect(put.status).toBe(422)
    const after = await api('GET', `${ns}/pods/imm-spec`)
    expect(after.json.metadata.resourceVersion).toBe(before.json.metadata.resourceVersion)
    expect(after.json.spec).toEqual(before.json.spec)
  })

  it('still takes a new image, labels, a deadline and tolerations', async () => {
    await api('POST', `${ns}/pods`, sleeper('imm-ok'))
    const image = await api(
      'PATCH',
      `${ns}/pods/imm-ok`,
      { spec: { containers: [{ name: 'app', image: 'busybox:1.37' }] } },
      smp,
    )
    expect(image.status, image.json.message).toBe(200)
    expect(image.json.spec.containers[0]).toMatchObject({
      image: 'busybox:1.37',
      command: ['sleep', '3600'],
    })
    const labels = await api(
      'PATCH',
      `${ns}/pods/imm-ok`,
      { metadata: { labels: { tier: 'web' } }, spec: { activeDeadlineSeconds: 600 } },
      merge,
    )
    expect(labels.status).toBe(200)
    const gpu = { key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }
    // A list of tolerations replaces the one stored, which holds the defaults admission added: refused.
    const replaced = await api('PATCH', `${ns}/pods/imm-ok`, { spec: { tolerations: [gpu] } }, smp)
    expect(replaced.status).toBe(422)
    expect(replaced.json.message).toBe(
      'Pod "imm-ok" is invalid: spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds',
    )
    const tolerate = await api(
      'PATCH',
      `${ns}/pods/imm-ok`,
      [{ op: 'add', path: '/spec/tolerations/-', value: gpu }],
      'application/json-patch+json',
    )
    expect(tolerate.status).toBe(200)
    const put = await api('PUT', `${ns}/pods/imm-ok`, {
      ...tolerate.json,
      spec: { ...tolerate.json.spec, activeDeadlineSeconds: 300 },
    })
    expect(put.status).toBe(200)
    expect(put.json.spec.activeDeadlineSeconds).toBe(300)
    const longer = await api(
      'PATCH',
      `${ns}/pods/imm-ok`,
      { spec: { activeDeadlineSeconds: 900 } },
      merge,
    )
    expect(longer.status).toBe(422)
    expect(longer.json.message).toBe(
      'Pod "imm-ok" is invalid: spec.activeDeadlineSeconds: Invalid value: 900: must be less than or equal to previous value',
    )
  })

  it('is bound, given a status and opened to ephemeral containers through its subresources', async () => {
    await api('POST', `${ns}/pods`, sleeper('imm-sub'))
    const bound = await api('POST', `${ns}/pods/imm-sub/binding`, {
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name: 'imm-sub' },
      target: { kind: 'Node', name: 'n1' },
    })
    expect(bound.status).toBe(201)
    expect((await api('GET', `${ns}/pods/imm-sub`)).json.spec.nodeName).toBe('n1')
    const status = await api(
      'PATCH',
      `${ns}/pods/imm-sub/status`,
      { status: { phase: 'Running' } },
      merge,
    )
    expect(status.status).toBe(200)
    expect(status.json.status.phase).toBe('Running')
    const debug = {
      spec: {
        ephemeralContainers: [{ name: 'dbg', image: 'busybox', terminationMessagePolicy: 'File' }],
      },
    }
    expect((await api('PATCH', `${ns}/pods/imm-sub/ephemeralcontainers`, debug, smp)).status).toBe(
      200,
    )
    // The pod bound, running and debugged still takes an ordinary update.
    expect(
      (
        await api(
          'PATCH',
          `${ns}/pods/imm-sub`,
          { metadata: { annotations: { note: 'x' } } },
          merge,
        )
      ).status,
    ).toBe(200)
  })

  it('may only lose scheduling gates', async () => {
    await api(
      'POST',
      `${ns}/pods`,
      sleeper('imm-gated', { schedulingGates: [{ name: 'a' }, { name: 'b' }] }),
    )
    const added = await api(
      'PATCH',
      `${ns}/pods/imm-gated`,
      { spec: { schedulingGates: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] } },
      merge,
    )
    expect(added.status).toBe(422)
    expect(added.json.message).toBe(
      `Pod "imm-gated" is invalid: spec.schedulingGates[2].name: Forbidden: only deletion is allowed, but found new scheduling gate 'c'`,
    )
    const removed = await api(
      'PATCH',
      `${ns}/pods/imm-gated`,
      { spec: { schedulingGates: [{ name: 'b' }] } },
      merge,
    )
    expect(removed.status).toBe(200)
  })
})

describe('fixed fields of other kinds through the API', () => {
  it('a StatefulSet takes a new template and replicas, not a new serviceName', async () => {
    const set = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'imm-sts' },
      spec: {
        serviceName: 'svc',
        selector: { matchLabels: { app: 'sts' } },
        template: {
          metadata: { labels: { app: 'sts' } },
          spec: { containers: [{ name: 'app', image: 'busybox' }] },
        },
      },
    }
    const path = '/apis/apps/v1/namespaces/default/statefulsets'
    expect((await api('POST', path, set)).status).toBe(201)
    expect(
      (
        await api(
          'PATCH',
          `${path}/imm-sts`,
          {
            spec: {
              replicas: 2,
              template: { spec: { containers: [{ name: 'app', image: 'busybox:2' }] } },
            },
          },
          smp,
        )
      ).status,
    ).toBe(200)
    const res = await api('PATCH', `${path}/imm-sts`, { spec: { serviceName: 'other' } }, merge)
    expect(res.status).toBe(422)
    expect(res.json.message).toBe(
      `StatefulSet.apps "imm-sts" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden`,
    )
  })

  it('a Job keeps its template, a Secret its type', async () => {
    const job = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'imm-job' },
      spec: {
        suspend: true,
        template: {
          spec: { restartPolicy: 'Never', containers: [{ name: 'app', image: 'busybox' }] },
        },
      },
    }
    const jobs = '/apis/batch/v1/namespaces/default/jobs'
    expect((await api('POST', jobs, job)).status).toBe(201)
    const image = await api(
      'PATCH',
      `${jobs}/imm-job`,
      { spec: { template: { spec: { containers: [{ name: 'app', image: 'busybox:2' }] } } } },
      smp,
    )
    expect(image.status).toBe(422)
    expect(image.json.message).toMatch(
      /^Job\.batch "imm-job" is invalid: spec\.template: Invalid value: .*: field is immutable$/s,
    )
    // Suspended and never started: its scheduling directives may still change.
    expect(
      (
        await api(
          'PATCH',
          `${jobs}/imm-job`,
          { spec: { template: { spec: { nodeSelector: { zone: 'a' } } } } },
          smp,
        )
      ).status,
    ).toBe(200)
    expect(
      (
        await api('POST', `${ns}/secrets`, {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: 'imm-secret' },
          stringData: { a: '1' },
        })
      ).status,
    ).toBe(201)
    const typed = await api(
      'PATCH',
      `${ns}/secrets/imm-secret`,
      { type: 'example.com/custom' },
      merge,
    )
    expect(typed.status).toBe(422)
    expect(typed.json.message).toContain(
      'type: Invalid value: "example.com/custom": field is immutable',
    )
  })

  it('a Service keeps its cluster IP, until it becomes an ExternalName and back', async () => {
    const services = `${ns}/services`
    const created = await api('POST', services, {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'imm-svc' },
      spec: { selector: { app: 'x' }, ports: [{ port: 80 }] },
    })
    expect(created.status).toBe(201)
    const moved = await api(
      'PATCH',
      `${services}/imm-svc`,
      { spec: { clusterIP: '10.96.0.77', clusterIPs: ['10.96.0.77'] } },
      merge,
    )
    expect(moved.status).toBe(422)
    expect(moved.json.message).toContain(
      'spec.clusterIPs[0]: Invalid value: "10.96.0.77": may not change once set',
    )
    const external = await api(
      'PATCH',
      `${services}/imm-svc`,
      {
        spec: {
          type: 'ExternalName',
          externalName: 'example.com',
          clusterIP: null,
          clusterIPs: null,
          ipFamilies: null,
          ipFamilyPolicy: null,
        },
      },
      merge,
    )
    expect(external.status).toBe(200)
    const back = await api(
      'PATCH',
      `${services}/imm-svc`,
      { spec: { type: 'ClusterIP', externalName: null, clusterIP: '10.96.0.77' } },
      merge,
    )
    expect(back.status).toBe(200)
    expect(back.json.spec.clusterIP).toBe('10.96.0.77')
  })
})
