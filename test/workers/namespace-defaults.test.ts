import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { ControllerRunner, defaultRunnerOptions } from '../../src/controllers/runtime/runner'
import { controllerDefinition } from '../../src/controllers/registry'
import {
  caDescription,
  noCaDescription,
  rootCaPublisher,
} from '../../src/controllers/namespace-defaults/root-ca'
import { serviceAccountsController } from '../../src/controllers/namespace-defaults/service-accounts'
import { api } from './helpers'

const pem = '-----BEGIN CERTIFICATE-----\nMIIBtest\n-----END CERTIFICATE-----\n'
const namespace = (name: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } })

describe('every namespace gets kube-root-ca.crt and the default ServiceAccount', () => {
  it('publishes the CA bundle in each namespace, and puts it back when deleted or changed', async () => {
    expect((await api('POST', '/api/v1/namespaces', namespace('ca-a'))).status).toBe(201)
    const runner = new ControllerRunner(env, rootCaPublisher(pem), defaultRunnerOptions)
    await runner.pass()
    for (const ns of ['default', 'kube-system', 'ca-a']) {
      const cm = (await api('GET', `/api/v1/namespaces/${ns}/configmaps/kube-root-ca.crt`)).json
      expect(cm.data).toEqual({ 'ca.crt': pem })
      expect(cm.metadata.annotations['kubernetes.io/description']).toBe(caDescription)
    }
    expect(
      (await api('DELETE', '/api/v1/namespaces/ca-a/configmaps/kube-root-ca.crt')).status,
    ).toBe(200)
    const edited = await api(
      'PATCH',
      '/api/v1/namespaces/default/configmaps/kube-root-ca.crt',
      { data: { 'ca.crt': 'forged', extra: 'x' }, metadata: { labels: { mine: 'yes' } } },
      'application/merge-patch+json',
    )
    expect(edited.status).toBe(200)
    await runner.pass()
    expect(
      (await api('GET', '/api/v1/namespaces/ca-a/configmaps/kube-root-ca.crt')).json.data,
    ).toEqual({ 'ca.crt': pem })
    const back = (await api('GET', '/api/v1/namespaces/default/configmaps/kube-root-ca.crt')).json
    expect(back.data).toEqual({ 'ca.crt': pem })
    expect(back.metadata.labels).toEqual({ mine: 'yes' })
  })

  it('publishes an empty bundle that says so when the API has no private CA', async () => {
    expect((await api('POST', '/api/v1/namespaces', namespace('ca-public'))).status).toBe(201)
    await new ControllerRunner(env, rootCaPublisher(''), defaultRunnerOptions).pass()
    const cm = (await api('GET', '/api/v1/namespaces/ca-public/configmaps/kube-root-ca.crt')).json
    expect(cm.data).toEqual({ 'ca.crt': '' })
    expect(cm.metadata.annotations['kubernetes.io/description']).toBe(noCaDescription)
  })

  it('creates the default ServiceAccount, again after a delete, but not in a terminating namespace', async () => {
    expect((await api('POST', '/api/v1/namespaces', namespace('sa-a'))).status).toBe(201)
    expect(
      (
        await api('POST', '/api/v1/namespaces', {
          ...namespace('sa-gone'),
          spec: { finalizers: ['example.com/hold'] },
        })
      ).status,
    ).toBe(201)
    expect((await api('DELETE', '/api/v1/namespaces/sa-gone')).status).toBeLessThan(300)
    const runner = new ControllerRunner(env, serviceAccountsController(), defaultRunnerOptions)
    await runner.pass()
    const sa = (await api('GET', '/api/v1/namespaces/sa-a/serviceaccounts/default')).json
    expect(sa).toMatchObject({
      kind: 'ServiceAccount',
      metadata: { name: 'default', namespace: 'sa-a' },
    })
    expect((await api('GET', '/api/v1/namespaces/sa-gone/serviceaccounts/default')).status).toBe(
      404,
    )

    expect((await api('DELETE', '/api/v1/namespaces/sa-a/serviceaccounts/default')).status).toBe(
      200,
    )
    await runner.pass()
    const again = (await api('GET', '/api/v1/namespaces/sa-a/serviceaccounts/default')).json
    expect(again.metadata.uid).not.toBe(sa.metadata.uid)
  })
})

describe('default/kubernetes points at the API server', () => {
  const kubernetesService = () =>
    controllerDefinition('kubernetes-service', { ...env, EDGEPLANE_API_ENDPOINT: '127.0.0.1:6443' })

  it('creates the Service on the first address of the service range, with its Endpoints and EndpointSlice', async () => {
    await new ControllerRunner(env, kubernetesService(), defaultRunnerOptions).pass()
    const svc = (await api('GET', '/api/v1/namespaces/default/services/kubernetes')).json
    expect(svc.metadata.labels).toEqual({ component: 'apiserver', provider: 'kubernetes' })
    expect(svc.spec).toMatchObject({
      type: 'ClusterIP',
      clusterIP: '10.96.0.1',
      ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: 6443 }],
    })
    expect(svc.spec.selector).toBeUndefined()
    const ep = (await api('GET', '/api/v1/namespaces/default/endpoints/kubernetes')).json
    expect(ep.subsets).toEqual([
      { addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: 6443, protocol: 'TCP' }] },
    ])
    const slice = (
      await api('GET', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes')
    ).json
    expect(slice).toMatchObject({
      addressType: 'IPv4',
      endpoints: [{ addresses: ['127.0.0.1'], conditions: { ready: true } }],
      ports: [{ name: 'https', port: 6443 }],
    })
  })

  it('recreates a deleted Service and restores changed ports and endpoints', async () => {
    const runner = new ControllerRunner(env, kubernetesService(), defaultRunnerOptions)
    await runner.pass()
    expect((await api('DELETE', '/api/v1/namespaces/default/services/kubernetes')).status).toBe(200)
    expect(
      (
        await api(
          'PATCH',
          '/api/v1/namespaces/default/endpoints/kubernetes',
          { subsets: [{ addresses: [{ ip: '10.0.0.9' }], ports: [{ name: 'https', port: 1 }] }] },
          'application/merge-patch+json',
        )
      ).status,
    ).toBe(200)
    await runner.pass(() => Date.now() + 60_000)
    expect(
      (await api('GET', '/api/v1/namespaces/default/services/kubernetes')).json.spec.clusterIP,
    ).toBe('10.96.0.1')
    expect(
      (await api('GET', '/api/v1/namespaces/default/endpoints/kubernetes')).json.subsets[0]
        .addresses,
    ).toEqual([{ ip: '127.0.0.1' }])
  })
})
