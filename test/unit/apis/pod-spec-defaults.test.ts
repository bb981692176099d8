import { describe, expect, it } from 'vitest'
import { defaultPodSpec, defaultService } from '../../../src/apis/defaults'
import type { Json } from '../../../src/apimachinery/json-value'
import type { KubeObject } from '../../../src/apimachinery/types'

describe('pod spec defaults users see in -o yaml, as upstream SetDefaults', () => {
  it('fills a probe, its httpGet and the pod-level fields', () => {
    // The kubernetes/website example pods/probe/pod-with-http-healthcheck.yaml.
    const spec: Json = {
      containers: [
        {
          name: 'nginx',
          image: 'nginx',
          livenessProbe: {
            httpGet: { path: '/_status/healthz', port: 80 },
            initialDelaySeconds: 30,
            timeoutSeconds: 1,
          },
        },
      ],
    }
    defaultPodSpec(spec)
    expect((spec.containers as Json[])[0]!.livenessProbe).toEqual({
      httpGet: { path: '/_status/healthz', port: 80, scheme: 'HTTP' },
      initialDelaySeconds: 30,
      timeoutSeconds: 1,
      periodSeconds: 10,
      successThreshold: 1,
      failureThreshold: 3,
    })
    expect(spec.securityContext).toEqual({})
    expect(spec.enableServiceLinks).toBe(true)
  })

  it('keeps what the user set, and defaults a lifecycle httpGet path', () => {
    const spec: Json = {
      securityContext: { runAsUser: 1000 },
      enableServiceLinks: false,
      containers: [
        {
          name: 'c',
          image: 'i',
          readinessProbe: { tcpSocket: { port: 80 }, periodSeconds: 2, failureThreshold: 7 },
          lifecycle: { preStop: { httpGet: { port: 80 } } },
        },
      ],
    }
    defaultPodSpec(spec)
    const c = (spec.containers as Json[])[0]!
    expect(c.readinessProbe).toEqual({
      tcpSocket: { port: 80 },
      periodSeconds: 2,
      failureThreshold: 7,
      timeoutSeconds: 1,
      successThreshold: 1,
    })
    expect(c.lifecycle).toEqual({ preStop: { httpGet: { port: 80, path: '/', scheme: 'HTTP' } } })
    expect(spec.securityContext).toEqual({ runAsUser: 1000 })
    expect(spec.enableServiceLinks).toBe(false)
  })

  it('defaults volume modes, field references, token expiry and hostPath type', () => {
    const spec: Json = {
      containers: [
        {
          name: 'c',
          image: 'i',
          env: [{ name: 'N', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
        },
      ],
      volumes: [
        { name: 'a', secret: { secretName: 's' } },
        { name: 'b', configMap: { name: 'c', defaultMode: 0o400 } },
        {
          name: 'c',
          downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] },
        },
        {
          name: 'd',
          projected: {
            sources: [
              { serviceAccountToken: { path: 'token' } },
              { downwardAPI: { items: [{ path: 'n', fieldRef: { fieldPath: 'metadata.name' } }] } },
            ],
          },
        },
        { name: 'e', hostPath: { path: '/var/log' } },
      ],
    }
    defaultPodSpec(spec)
    expect((spec.containers as Json[])[0]!.env).toEqual([
      { name: 'N', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName', apiVersion: 'v1' } } },
    ])
    expect(spec.volumes).toEqual([
      { name: 'a', secret: { secretName: 's', defaultMode: 420 } },
      { name: 'b', configMap: { name: 'c', defaultMode: 0o400 } },
      {
        name: 'c',
        downwardAPI: {
          items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels', apiVersion: 'v1' } }],
          defaultMode: 420,
        },
      },
      {
        name: 'd',
        projected: {
          sources: [
            { serviceAccountToken: { path: 'token', expirationSeconds: 3600 } },
            {
              downwardAPI: {
                items: [{ path: 'n', fieldRef: { fieldPath: 'metadata.name', apiVersion: 'v1' } }],
              },
            },
          ],
          defaultMode: 420,
        },
      },
      { name: 'e', hostPath: { path: '/var/log', type: '' } },
    ])
  })

  it('gives a host-network pod host ports equal to its container ports', () => {
    const spec: Json = {
      hostNetwork: true,
      containers: [
        {
          name: 'c',
          image: 'i',
          ports: [{ containerPort: 8134 }, { containerPort: 80, hostPort: 80 }],
        },
      ],
    }
    defaultPodSpec(spec)
    expect((spec.containers as Json[])[0]!.ports).toEqual([
      { containerPort: 8134, hostPort: 8134, protocol: 'TCP' },
      { containerPort: 80, hostPort: 80, protocol: 'TCP' },
    ])
  })
})

describe('service traffic policies', () => {
  const svc = (spec: Json): KubeObject =>
    ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec }) as KubeObject
  it('defaults them by type, as upstream SetDefaults_Service', () => {
    const nodePort = svc({ type: 'NodePort', ports: [{ port: 80 }] })
    defaultService(nodePort)
    expect(nodePort.spec).toMatchObject({
      externalTrafficPolicy: 'Cluster',
      internalTrafficPolicy: 'Cluster',
    })
    const clusterIP = svc({ ports: [{ port: 80 }] })
    defaultService(clusterIP)
    expect(clusterIP.spec).toMatchObject({ type: 'ClusterIP', internalTrafficPolicy: 'Cluster' })
    expect((clusterIP.spec as Json).externalTrafficPolicy).toBeUndefined()
    const external = svc({ type: 'ExternalName', externalName: 'example.com' })
    defaultService(external)
    expect((external.spec as Json).internalTrafficPolicy).toBeUndefined()
    const local = svc({
      type: 'LoadBalancer',
      externalTrafficPolicy: 'Local',
      internalTrafficPolicy: 'Local',
    })
    defaultService(local)
    expect(local.spec).toMatchObject({
      externalTrafficPolicy: 'Local',
      internalTrafficPolicy: 'Local',
    })
  })
})
