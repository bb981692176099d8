import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import type { Cache, ResourceRef } from '../../../../src/controllers/runtime/types'
import { builtinResources, groupVersions } from '../../../../src/apis/registry'
import {
  defaultApiService,
  localApiServices,
} from '../../../../src/apis/apiregistration/apiservice'
import { validateObject } from '../../../../src/apis/validation/validate-object'
import { statusWriteValidation } from '../../../../src/apis/validate-status'
import { findResource } from '../../../../src/apis/registry'
import { apiServiceAutoregisterController } from '../../../../src/controllers/apiservice-autoregister'
import { apiServiceAvailabilityController } from '../../../../src/controllers/apiservice-availability'
import { apiServicePrinter } from '../../../../src/printers/apiregistration'

const def = findResource('apiregistration.k8s.io', 'v1', 'apiservices')!
const T = Date.parse('2030-01-01T00:00:00Z')

function metricsApiService(
  spec: Record<string, unknown> = {},
  name = 'v1beta1.metrics.k8s.io',
): KubeObject {
  const o: KubeObject = {
    apiVersion: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    metadata: { name },
    spec: {
      service: { name: 'metrics-server', namespace: 'kube-system' },
      group: 'metrics.k8s.io',
      version: 'v1beta1',
      insecureSkipTLSVerify: true,
      groupPriorityMinimum: 100,
      versionPriority: 100,
      ...spec,
    },
  }
  defaultApiService(o)
  return o
}

/** A cache over objects keyed by plural, namespace and name. */
function cacheOf(...objects: KubeObject[]): Cache {
  const plural = (o: KubeObject) =>
    ({ APIService: 'apiservices', Service: 'services', Endpoints: 'endpoints' })[o.kind as string]
  return {
    get: (r: ResourceRef, ns, name) =>
      objects.find(
        (o) =>
          plural(o) === r.plural &&
          (o.metadata.namespace ?? '') === (ns ?? '') &&
          o.metadata.name === name,
      ),
    list: (r: ResourceRef) => objects.filter((o) => plural(o) === r.plural),
  }
}

const causes = (o: KubeObject) => validateObject(def, o).map((c) => `${c.field}: ${c.message}`)

describe('APIService validation', () => {
  it('accepts metrics-server’s APIService and defaults its service port to 443', () => {
    const o = metricsApiService()
    expect(causes(o)).toEqual([])
    expect((o.spec as { service: { port: number } }).service.port).toBe(443)
  })

  it('requires the name to be <version>.<group>', () => {
    expect(causes(metricsApiService({}, 'metrics'))).toEqual([
      expect.stringMatching(
        /^metadata\.name: .*must be `spec\.version\+"\."\+spec\.group`: "v1beta1\.metrics\.k8s\.io"/,
      ),
    ])
  })

  it('bounds the priorities', () => {
    expect(causes(metricsApiService({ groupPriorityMinimum: 0 }))).toEqual([
      expect.stringMatching(/^spec\.groupPriorityMinimum: .*must be positive and less than 20000/),
    ])
    expect(causes(metricsApiService({ groupPriorityMinimum: 20001 }))).toHaveLength(1)
    expect(
      causes(metricsApiService({ groupPriorityMinimum: 20000, versionPriority: 1000 })),
    ).toEqual([])
    expect(causes(metricsApiService({ versionPriority: 1001 }))).toEqual([
      expect.stringMatching(/^spec\.versionPriority: .*must be positive and less than 1000/),
    ])
  })

  it('refuses insecureSkipTLSVerify together with a caBundle, and either on a Local APIService', () => {
    expect(causes(metricsApiService({ caBundle: btoa('pem') }))).toEqual([
      expect.stringMatching(
        /^spec\.insecureSkipTLSVerify: .*may not be true if caBundle is present/,
      ),
    ])
    const local = metricsApiService(
      { service: null, group: 'apps', version: 'v1', caBundle: btoa('pem') },
      'v1.apps',
    )
    expect(causes(local)).toEqual([
      expect.stringMatching(
        /^spec\.caBundle: .*3 bytes.*local APIServices may not have a caBundle/,
      ),
      expect.stringMatching(
        /^spec\.insecureSkipTLSVerify: .*local APIServices may not have insecureSkipTLSVerify/,
      ),
    ])
  })

  it('takes a Local APIService for any group version, as kube-aggregator does, and requires the service’s namespace and name', () => {
    expect(causes(metricsApiService({ service: null, insecureSkipTLSVerify: false }))).toEqual([])
    expect(causes(metricsApiService({ service: { port: 70000 } }))).toEqual([
      expect.stringMatching(/^spec\.service\.namespace: Required value/),
      expect.stringMatching(/^spec\.service\.name: Required value/),
      expect.stringMatching(
        /^spec\.service\.port: .*port is not valid: must be between 1 and 65535, inclusive/,
      ),
    ])
  })

  it('checks group and version formats, and lets only v1 have an empty group', () => {
    expect(causes(metricsApiService({ group: '', version: 'v2' }, 'v2.'))).toEqual([
      expect.stringMatching(/^spec\.group: Required value: only v1 may have an empty group/),
    ])
    expect(
      causes(metricsApiService({ group: 'Metrics', version: '1x' }, '1x.Metrics')).map(
        (c) => c.split(':')[0],
      ),
    ).toEqual(['spec.group', 'spec.version'])
  })

  it('refuses a status condition whose status is not True, False or Unknown', () => {
    const o = metricsApiService()
    const next = { ...o, status: { conditions: [{ type: 'Available', status: 'Maybe' }] } }
    expect(statusWriteValidation(def, o)!(next).map((c) => c.field)).toEqual([
      'status.conditions[0].status',
    ])
  })
})

describe('the Local APIServices', () => {
  it('are one per group version of the registry, each named <version>.<group> and valid', () => {
    const locals = localApiServices()
    expect(locals.map((o) => o.metadata.name).sort()).toEqual(
      groupVersions(builtinResources)
        .map((gv) => `${gv.version}.${gv.group}`)
        .sort(),
    )
    expect(locals.map((o) => o.metadata.name)).toEqual(
      expect.arrayContaining([
        'v1.',
        'v1.apps',
        'v1.batch',
        'v2.autoscaling',
        'v1.autoscaling',
        'v1.apiregistration.k8s.io',
      ]),
    )
    for (const o of locals) {
      expect(o.metadata.labels).toEqual({ 'kube-aggregator.kubernetes.io/automanaged': 'onstart' })
      expect(causes(o)).toEqual([])
    }
  })

  it('are created when missing, and get their spec back when changed; one without the label is left alone', () => {
    const ctl = apiServiceAutoregisterController()
    const apps = localApiServices().find((o) => o.metadata.name === 'v1.apps')!
    expect(ctl.reconcile('v1.apps', cacheOf(), T).actions).toEqual([
      {
        type: 'create',
        resource: expect.objectContaining({ plural: 'apiservices' }),
        object: apps,
      },
    ])
    const changed = { ...apps, spec: { ...(apps.spec as object), groupPriorityMinimum: 5 } }
    expect(ctl.reconcile('v1.apps', cacheOf(changed), T).actions).toEqual([
      expect.objectContaining({
        type: 'update',
        object: expect.objectContaining({ spec: apps.spec }),
      }),
    ])
    expect(ctl.reconcile('v1.apps', cacheOf(apps), T).actions).toEqual([])
    expect(
      ctl.reconcile('v1.apps', cacheOf({ ...changed, metadata: { name: 'v1.apps' } }), T).actions,
    ).toEqual([])
    expect(ctl.watches.keysFor(def, metricsApiService(), cacheOf())).toEqual([])
  })
})

describe('APIService availability', () => {
  const ctl = apiServiceAvailabilityController()
  const available = (...objects: KubeObject[]) => {
    const actions = ctl.reconcile(objects[0]!.metadata.name!, cacheOf(...objects), T).actions
    const status = (actions[0] as { object: KubeObject } | undefined)?.object.status as {
      conditions: {
        type: string
        status: string
        reason: string
        message: string
        lastTransitionTime: string
      }[]
    }
    return status?.conditions.find((c) => c.type === 'Available')
  }
  const svc = (ports = [{ name: 'https', port: 443 }]): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'metrics-server', namespace: 'kube-system' },
    spec: { type: 'ClusterIP', ports },
  })
  const eps = (addresses: unknown[]): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name: 'metrics-server', namespace: 'kube-system' },
    subsets: [{ addresses, ports: [{ name: 'https', port: 10250 }] }],
  })

  it('is True for a Local APIService', () => {
    expect(available(localApiServices()[0]!)).toEqual({
      type: 'Available',
      status: 'True',
      reason: 'Local',
      message: 'Local APIServices are always available',
      lastTransitionTime: '2030-01-01T00:00:00Z',
    })
  })

  it('is False for a Service-backed one, for upstream’s reason while the Service or its endpoints are wanting', () => {
    expect(available(metricsApiService())).toMatchObject({
      status: 'False',
      reason: 'ServiceNotFound',
      message: 'service/metrics-server in "kube-system" is not present',
    })
    expect(available(metricsApiService(), svc([{ name: 'http', port: 80 }]))).toMatchObject({
      reason: 'ServicePortError',
      message: 'service/metrics-server in "kube-system" is not listening on port 443',
    })
    expect(available(metricsApiService(), svc())).toMatchObject({ reason: 'EndpointsNotFound' })
    expect(available(metricsApiService(), svc(), eps([]))).toMatchObject({
      reason: 'MissingEndpoints',
      message:
        'endpoints for service/metrics-server in "kube-system" have no addresses with port name "https"',
    })
  })

  it('is False with a plain reason when the Service is ready, since requests are not proxied', () => {
    expect(available(metricsApiService(), svc(), eps([{ ip: '10.0.0.5' }]))).toMatchObject({
      status: 'False',
      reason: 'NotProxied',
      message:
        'this API server does not proxy aggregated APIs; requests for metrics.k8s.io/v1beta1 are not served',
    })
  })

  it('writes nothing when the condition holds, and keeps lastTransitionTime while the status stays', () => {
    const before = {
      type: 'Available',
      status: 'False',
      reason: 'ServiceNotFound',
      message: 'service/metrics-server in "kube-system" is not present',
      lastTransitionTime: '2029-01-01T00:00:00Z',
    }
    const o = { ...metricsApiService(), status: { conditions: [before] } }
    expect(ctl.reconcile(o.metadata.name!, cacheOf(o), T).actions).toEqual([])
    expect(available(o, svc(), eps([{ ip: '10.0.0.5' }]))).toMatchObject({
      reason: 'NotProxied',
      lastTransitionTime: '2029-01-01T00:00:00Z',
    })
  })

  it('is woken for the APIServices a Service or Endpoints backs', () => {
    expect(
      ctl.watches.keysFor(
        { group: '', version: 'v1', plural: 'services' },
        svc(),
        cacheOf(metricsApiService(), localApiServices()[0]!),
      ),
    ).toEqual(['v1beta1.metrics.k8s.io'])
    const endpointsRef = { group: '', version: 'v1', plural: 'endpoints' }
    const annotated = (o: KubeObject) => ({
      ...o,
      metadata: { ...o.metadata, annotations: { note: 'x' } },
    })
    expect(ctl.watches.wakesOn!(endpointsRef, 'MODIFIED', eps([{ ip: '10.0.0.5' }]), eps([]))).toBe(
      true,
    )
    expect(
      ctl.watches.wakesOn!(
        endpointsRef,
        'MODIFIED',
        annotated(eps([{ ip: '10.0.0.5' }])),
        eps([{ ip: '10.0.0.6' }]),
      ),
    ).toBe(false)
    expect(
      ctl.watches.wakesOn!(
        { group: '', version: 'v1', plural: 'services' },
        'MODIFIED',
        svc([{ name: 'https', port: 8443 }]),
        svc(),
      ),
    ).toBe(true)
    expect(
      ctl.watches.wakesOn!(
        { group: '', version: 'v1', plural: 'services' },
        'MODIFIED',
        annotated(svc()),
        svc(),
      ),
    ).toBe(false)
  })
})

describe('kubectl get apiservices', () => {
  it('prints NAME, SERVICE, AVAILABLE, AGE as kube-aggregator does', () => {
    expect(apiServicePrinter.columns.map((c) => c.name)).toEqual([
      'Name',
      'Service',
      'Available',
      'Age',
    ])
    const local = {
      ...localApiServices()[0]!,
      status: { conditions: [{ type: 'Available', status: 'True', reason: 'Local' }] },
    }
    expect(apiServicePrinter.cells(local, T).slice(1, 3)).toEqual(['Local', 'True'])
    const remote = {
      ...metricsApiService(),
      status: { conditions: [{ type: 'Available', status: 'False', reason: 'ServiceNotFound' }] },
    }
    expect(apiServicePrinter.cells(remote, T).slice(1, 3)).toEqual([
      'kube-system/metrics-server',
      'False (ServiceNotFound)',
    ])
    expect(apiServicePrinter.cells(metricsApiService(), T)[2]).toBe('Unknown')
  })
})
