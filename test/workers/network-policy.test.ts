import { describe, expect, it } from 'vitest'
import { api } from './helpers'

const base = '/apis/networking.k8s.io/v1/namespaces/default/networkpolicies'
const policy = (name: string, spec: unknown) => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'NetworkPolicy',
  metadata: { name },
  spec,
})

describe('networking.k8s.io/v1 NetworkPolicy', () => {
  it('stores a policy with upstream defaults, marks it not enforced and warns on write', async () => {
    const res = await api(
      'POST',
      base,
      policy('web', {
        podSelector: { matchLabels: { app: 'web' } },
        ingress: [{ from: [{ podSelector: {} }], ports: [{ port: 80 }] }],
        egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16'] } }] }],
      }),
    )
    expect(res.status).toBe(201)
    expect(res.json.spec.policyTypes).toEqual(['Ingress', 'Egress'])
    expect(res.json.spec.ingress[0].ports).toEqual([{ port: 80, protocol: 'TCP' }])
    expect(res.json.metadata.generation).toBe(1)
    expect(res.json.metadata.annotations['networking.edgeplane.dev/enforced']).toMatch(
      /^false: no node runtime enforces NetworkPolicy/,
    )
    expect(res.headers.get('Warning')).toContain('NetworkPolicy is stored but not enforced')
    const removed = await api(
      'PATCH',
      `${base}/web`,
      { metadata: { annotations: { 'networking.edgeplane.dev/enforced': null } } },
      'application/merge-patch+json',
    )
    expect(removed.json.metadata.annotations['networking.edgeplane.dev/enforced']).toMatch(/^false/)
  })

  it('defaults policyTypes to Ingress alone when there is no egress rule', async () => {
    const res = await api('POST', base, policy('deny-all', { podSelector: {} }))
    expect(res.status).toBe(201)
    expect(res.json.spec.policyTypes).toEqual(['Ingress'])
  })

  it('refuses invalid peers, ports, CIDRs and policy types with the fields named', async () => {
    const res = await api(
      'POST',
      base,
      policy('bad', {
        podSelector: {},
        ingress: [
          {
            from: [{}, { ipBlock: { cidr: '10.0.0.0/8' }, podSelector: {} }],
            ports: [{ port: 70000 }, { port: 'http', endPort: 90 }, { protocol: 'ICMP' }],
          },
        ],
        egress: [
          {
            to: [
              { ipBlock: { cidr: 'nope' } },
              { ipBlock: { cidr: '10.0.0.0/16', except: ['10.0.0.0/8'] } },
              { ipBlock: { cidr: 'fd00::/8', except: ['fd00:1::/32'] } },
            ],
          },
        ],
        policyTypes: ['Sideways'],
      }),
    )
    expect(res.status).toBe(422)
    expect(res.json.reason).toBe('Invalid')
    expect(res.json.details.causes.map((c: any) => c.field)).toEqual([
      'spec.ingress[0].ports[0].port',
      'spec.ingress[0].ports[1].endPort',
      'spec.ingress[0].ports[2].protocol',
      'spec.ingress[0].from[0]',
      'spec.ingress[0].from[1]',
      'spec.egress[0].to[0].ipBlock.cidr',
      'spec.egress[0].to[1].ipBlock.except[0]',
      'spec.policyTypes[0]',
    ])
    expect(res.json.message).toContain(
      'spec.ingress[0].from[0]: Required value: must specify a peer',
    )
    expect(res.json.message).toContain(
      'spec.egress[0].to[1].ipBlock.except[0]: Invalid value: "10.0.0.0/8": must be a strict subset of `cidr`',
    )
    expect((await api('GET', `${base}/bad`)).status).toBe(404)
  })

  it('prints the Pod-Selector column', async () => {
    const table = await api('GET', base, undefined, undefined, {
      Accept: 'application/json;as=Table;g=meta.k8s.io;v=v1',
    })
    expect(table.json.columnDefinitions.map((c: any) => c.name)).toEqual([
      'Name',
      'Pod-Selector',
      'Age',
    ])
    const cells = Object.fromEntries(table.json.rows.map((r: any) => [r.cells[0], r.cells[1]]))
    expect(cells).toMatchObject({ web: 'app=web', 'deny-all': '<none>' })
  })
})

describe('componentstatuses', () => {
  it('lists every store and controller host with its health, and gets one by name', async () => {
    const list = await api('GET', '/api/v1/componentstatuses')
    expect(list.status).toBe(200)
    expect(list.headers.get('Warning')).toContain('v1 ComponentStatus is deprecated in v1.19+')
    expect(list.json.kind).toBe('ComponentStatusList')
    const names = list.json.items.map((i: any) => i.metadata.name)
    expect(names).toEqual(
      expect.arrayContaining([
        'store-pods',
        'store-deployments.apps',
        'controller-scheduler',
        'controller-root-ca-cert-publisher',
      ]),
    )
    expect(names).not.toContain('etcd-0')
    for (const item of list.json.items)
      expect(item.conditions).toEqual([{ type: 'Healthy', status: 'True', message: 'ok' }])
    const one = await api('GET', '/api/v1/componentstatuses/store-pods')
    expect(one.json).toMatchObject({ kind: 'ComponentStatus', metadata: { name: 'store-pods' } })
    expect((await api('GET', '/api/v1/componentstatuses/etcd-0')).status).toBe(404)
    expect((await api('DELETE', '/api/v1/componentstatuses/store-pods')).status).toBe(405)
    const table = await api('GET', '/api/v1/componentstatuses', undefined, undefined, {
      Accept: 'application/json;as=Table;g=meta.k8s.io;v=v1',
    })
    expect(table.json.columnDefinitions.map((c: any) => c.name)).toEqual([
      'Name',
      'Status',
      'Message',
      'Error',
    ])
    expect(table.json.rows[0].cells.slice(1)).toEqual(['Healthy', 'ok', ''])
  })
})
