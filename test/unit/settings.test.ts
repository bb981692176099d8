import { describe, expect, it } from 'vitest'
import { parseSettings, settingsOf } from '../../src/settings/settings'
import { DEFAULT_EVICTION_RATES } from '../../src/settings/eviction-rates'

describe('the Worker settings', () => {
  it('take each default when no variable is set', () => {
    const s = parseSettings({})
    expect(s).toMatchObject({
      insecureAnonymous: false,
      cloudflareMtls: false,
      strictLimits: false,
      compactRetainEvents: 1000,
      compactRetainMs: 300_000,
      eventTtlMs: 3_600_000,
      controllerNotifications: true,
      controllerResyncMs: 12 * 3600 * 1000,
      controllerPassGapMs: 100,
      serviceClusterIpRange: '10.96.0.0/12',
      nodeMonitorGracePeriodMs: 40_000,
      evictionRates: DEFAULT_EVICTION_RATES,
      clusterSigning: false,
      signingDurationSeconds: 365 * 24 * 3600,
      apiHostHeaders: [],
      apiHostnames: [],
      apiEndpoint: undefined,
      lbDomain: 'localhost',
      ingressAddress: undefined,
      rootCa: '',
    })
    expect(s.nodeCidrs).toMatchObject({ cluster: { text: '10.244.0.0/16' }, maskSize: 24 })
    expect(s.podSecurity.errors).toEqual([])
  })

  it('read each variable as the code that used it did', () => {
    const s = parseSettings({
      EDGEPLANE_STRICT_LIMITS: 'true',
      COMPACT_RETAIN_SECONDS: '10',
      EDGEPLANE_EVENT_TTL_SECONDS: '-5',
      CONTROLLER_NOTIFICATIONS: 'false',
      CONTROLLER_RESYNC_SECONDS: '2',
      EDGEPLANE_NODE_MONITOR_GRACE_PERIOD: '1m30s',
      EDGEPLANE_API_HOST: ' API.example.com:443, k8s.example.com',
      EDGEPLANE_API_ENDPOINT: '10.0.0.5:6443',
      CLUSTER_CA_CERT: 'cert',
      CLUSTER_CA_KEY: 'key',
      EDGEPLANE_CLIENT_CERT_SECRET: 'front',
      CLUSTER_SIGNING_DURATION_SECONDS: '599',
    })
    expect(s).toMatchObject({
      strictLimits: true,
      compactRetainMs: 10_000,
      eventTtlMs: 3_600_000,
      controllerNotifications: false,
      controllerResyncMs: 2000,
      nodeMonitorGracePeriodMs: 90_000,
      apiHostHeaders: ['api.example.com:443', 'k8s.example.com'],
      apiHostnames: ['api.example.com', 'k8s.example.com', '10.0.0.5'],
      apiEndpoint: { ip: '10.0.0.5', port: 6443 },
      ingressAddress: 'API.example.com:443',
      clusterSigning: true,
      signingDurationSeconds: 365 * 24 * 3600,
    })
  })

  it('keep a wrong node CIDR as the error node IPAM fails with, and Pod Security problems as theirs', () => {
    const s = parseSettings({ CLUSTER_CIDR: 'nope', EDGEPLANE_POD_SECURITY_ENFORCE: 'strict' })
    expect(s.nodeCidrs instanceof Error && s.nodeCidrs.message).toContain('CLUSTER_CIDR')
    expect(s.podSecurity.errors.join()).toContain('EDGEPLANE_POD_SECURITY_ENFORCE')
  })

  it('are parsed once per environment', () => {
    const env = { CONTROLLER_PASS_GAP_MS: '5' }
    expect(settingsOf(env)).toBe(settingsOf(env))
    expect(settingsOf(env).controllerPassGapMs).toBe(5)
    expect(settingsOf({ ...env })).not.toBe(settingsOf(env))
  })
})
