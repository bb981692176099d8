import { describe, expect, it } from 'vitest'
import { SELF } from 'cloudflare:test'
import { api, token } from './helpers'

const v1 = '/apis/events.k8s.io/v1/namespaces/default/events'
const now = () => new Date().toISOString().replace(/\.(\d{3})Z$/, '.$1000Z')

const v1Event = (name: string) => ({
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata: { name },
  eventTime: now(),
  reportingController: 'example.com/operator',
  reportingInstance: 'operator-0',
  action: 'Reconcile',
  reason: 'Synced',
  note: 'synced the widget',
  type: 'Normal',
  regarding: { kind: 'ConfigMap', namespace: 'default', name: 'widget', apiVersion: 'v1' },
})

describe('events.k8s.io/v1 Event: the core Events under the other group', () => {
  it('creates through events.k8s.io and reads the same object through core/v1, and back', async () => {
    const created = await api('POST', v1, v1Event('made-v1'))
    expect(created.status).toBe(201)
    expect(created.json).toMatchObject({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      note: 'synced the widget',
      reportingController: 'example.com/operator',
      regarding: { name: 'widget' },
    })
    const core = (await api('GET', '/api/v1/namespaces/default/events/made-v1')).json
    expect(core).toMatchObject({
      apiVersion: 'v1',
      kind: 'Event',
      message: 'synced the widget',
      reportingComponent: 'example.com/operator',
      reportingInstance: 'operator-0',
      involvedObject: { kind: 'ConfigMap', name: 'widget' },
    })
    expect(core.metadata.uid).toBe(created.json.metadata.uid)

    const legacy = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'made-core' },
      involvedObject: { kind: 'Pod', namespace: 'default', name: 'p' },
      reason: 'Started',
      message: 'started',
      type: 'Normal',
      count: 3,
      source: { component: 'kubelet', host: 'n1' },
      firstTimestamp: '2026-01-01T00:00:00Z',
      lastTimestamp: '2026-01-01T00:01:00Z',
    }
    expect((await api('POST', '/api/v1/namespaces/default/events', legacy)).status).toBe(201)
    const seen = (await api('GET', `${v1}/made-core`)).json
    expect(seen).toMatchObject({
      apiVersion: 'events.k8s.io/v1',
      note: 'started',
      deprecatedCount: 3,
      deprecatedSource: { component: 'kubelet', host: 'n1' },
      deprecatedFirstTimestamp: '2026-01-01T00:00:00Z',
      deprecatedLastTimestamp: '2026-01-01T00:01:00Z',
      regarding: { kind: 'Pod', name: 'p' },
    })
    expect(seen.message).toBeUndefined()

    const list = (await api('GET', v1)).json
    expect(list.kind).toBe('EventList')
    expect(list.apiVersion).toBe('events.k8s.io/v1')
    expect(list.items.map((e: any) => e.metadata.name)).toEqual(
      expect.arrayContaining(['made-v1', 'made-core']),
    )
    expect(
      list.items.every(
        (e: any) => e.apiVersion === 'events.k8s.io/v1' && e.involvedObject === undefined,
      ),
    ).toBe(true)
  })

  it('selects with the events.k8s.io field names and refuses unknown ones', async () => {
    const hit = (
      await api(
        'GET',
        `${v1}?fieldSelector=${encodeURIComponent('regarding.name=widget,reportingController=example.com/operator')}`,
      )
    ).json
    expect(hit.items.map((e: any) => e.metadata.name)).toEqual(['made-v1'])
    const bad = await api('GET', `${v1}?fieldSelector=note%3Dx`)
    expect(bad.status).toBe(400)
    expect(bad.json.message).toBe('field label not supported: note')
  })

  it('patches, updates and deletes through the view', async () => {
    const merged = await api(
      'PATCH',
      `${v1}/made-v1`,
      { note: 'patched' },
      'application/merge-patch+json',
    )
    expect(merged.status).toBe(200)
    expect(merged.json.note).toBe('patched')
    const jsonPatched = await api(
      'PATCH',
      `${v1}/made-v1`,
      [{ op: 'replace', path: '/regarding/name', value: 'other' }],
      'application/json-patch+json',
    )
    expect(jsonPatched.json.regarding.name).toBe('other')
    expect((await api('GET', '/api/v1/namespaces/default/events/made-v1')).json).toMatchObject({
      message: 'patched',
      involvedObject: { name: 'other' },
    })
    const put = await api('PUT', `${v1}/made-v1`, {
      ...jsonPatched.json,
      series: { count: 2, lastObservedTime: now() },
    })
    expect(put.status).toBe(200)
    expect(put.json.series.count).toBe(2)
    const gone = await api('DELETE', `${v1}/made-v1`)
    expect(gone.status).toBe(200)
    expect(gone.json.apiVersion).toBe('events.k8s.io/v1')
    const missing = await api('GET', `${v1}/made-v1`)
    expect(missing.status).toBe(404)
    expect(missing.json.message).toBe('events.events.k8s.io "made-v1" not found')
  })

  it('refuses a create that lacks what events.k8s.io/v1 requires', async () => {
    const { reportingController: _c, action: _a, eventTime: _t, ...partial } = v1Event('partial')
    const res = await api('POST', v1, { ...partial, deprecatedCount: 2 })
    expect(res.status).toBe(422)
    expect(res.json.details).toMatchObject({
      group: 'events.k8s.io',
      kind: 'Event',
      name: 'partial',
    })
    expect(res.json.details.causes.map((c: any) => c.field)).toEqual([
      'reportingController',
      'action',
      'eventTime',
      'deprecatedCount',
    ])
    expect((await api('GET', '/api/v1/namespaces/default/events/partial')).status).toBe(404)
  })

  it('watches in the events.k8s.io shape', async () => {
    const res = await SELF.fetch(
      `https://edgeplane.test${v1}?watch=true&fieldSelector=metadata.name%3Dwatched&timeoutSeconds=5`,
      { headers: { Authorization: `Bearer ${token}` } },
    )
    expect(res.status).toBe(200)
    const reader = res.body!.getReader()
    expect((await api('POST', v1, v1Event('watched'))).status).toBe(201)
    let text = ''
    const deadline = Date.now() + 10_000
    while (!text.includes('\n') && Date.now() < deadline) {
      const { value, done } = await reader.read()
      if (done) break
      text += new TextDecoder().decode(value)
    }
    await reader.cancel()
    const event = JSON.parse(text.split('\n')[0]!)
    expect(event.type).toBe('ADDED')
    expect(event.object).toMatchObject({
      apiVersion: 'events.k8s.io/v1',
      metadata: { name: 'watched' },
      note: 'synced the widget',
      reportingController: 'example.com/operator',
    })
  })
})
