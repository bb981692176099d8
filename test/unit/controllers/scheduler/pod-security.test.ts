import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import { namespaces } from '../../../../src/controllers/resources'
import { schedulerController as declaredSchedulerController } from '../../../../src/controllers/scheduler'
import { RUNTIME_LABEL } from '../../../../src/agent-protocol/runtime-label'
import { parsePodSecuritySettings } from '../../../../src/apis/pod-security/settings'
import type { Action } from '../../../../src/controllers/runtime/types'
import { MemoryCache } from '../../../fixtures/memory-cache'
import { newNode, newPod } from '../../../helpers'
import { withProjections } from '../../../fixtures/projected'

// A process node runs every container as a process of the host: a namespace that enforces
// baseline or restricted gets no pod onto one.

const now = Date.parse('2025-06-01T12:00:00Z')
const schedulerWith = (vars: Record<string, string> = {}) =>
  withProjections(
    declaredSchedulerController({ podSecurity: parsePodSecuritySettings(vars).settings }),
  )
const namespace = (name: string, labels: Record<string, string> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, uid: `uid-${name}`, resourceVersion: '1', labels },
})
const processNode = newNode('laptop', { labels: { [RUNTIME_LABEL]: 'process' } })
const dockerNode = newNode('server', { labels: { [RUNTIME_LABEL]: 'docker' } })
const job = (ns: string, spec: Record<string, unknown> = {}) =>
  newPod('job', {
    namespace: ns,
    spec: { containers: [{ name: 'app', image: 'busybox', command: ['sleep', '60'] }], ...spec },
  })
const bound = (actions: Action[]) =>
  actions.find((a): a is Extract<Action, { type: 'bind' }> => a.type === 'bind')?.nodeName
const failed = (actions: Action[]) =>
  actions.find(
    (a): a is Extract<Action, { type: 'event' }> =>
      a.type === 'event' && a.reason === 'FailedScheduling',
  )?.message

describe('the scheduler and Pod Security on process nodes', () => {
  it('keeps a pod whose namespace enforces baseline off a process node, saying why', () => {
    const cache = new MemoryCache(processNode, job('team'))
    cache.put(namespaces, namespace('team', { 'pod-security.kubernetes.io/enforce': 'baseline' }))
    const out = schedulerWith().reconcile('team/job', cache, now)
    expect(bound(out.actions)).toBeUndefined()
    expect(failed(out.actions)).toBe(
      `0/1 nodes are available: 1 node(s) run containers as host processes, which can't meet the namespace's PodSecurity enforce level "baseline:latest". preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.`,
    )
  })

  it('places it on a node of another runtime instead', () => {
    const cache = new MemoryCache(processNode, dockerNode, job('team'))
    cache.put(namespaces, namespace('team', { 'pod-security.kubernetes.io/enforce': 'restricted' }))
    expect(bound(schedulerWith().reconcile('team/job', cache, now).actions)).toBe('server')
  })

  it('lets a privileged namespace, an exempt namespace or runtime class, and warn-only labels use process nodes', () => {
    const warnOnly = new MemoryCache(processNode, job('team'))
    warnOnly.put(namespaces, namespace('team', { 'pod-security.kubernetes.io/warn': 'restricted' }))
    expect(bound(schedulerWith().reconcile('team/job', warnOnly, now).actions)).toBe('laptop')
    const plain = new MemoryCache(processNode, job('team'))
    plain.put(namespaces, namespace('team'))
    expect(bound(schedulerWith().reconcile('team/job', plain, now).actions)).toBe('laptop')
    expect(
      bound(
        schedulerWith({
          EDGEPLANE_POD_SECURITY_ENFORCE: 'baseline',
          EDGEPLANE_POD_SECURITY_EXEMPT_NAMESPACES: 'team',
        }).reconcile('team/job', plain, now).actions,
      ),
    ).toBe('laptop')
    const kata = new MemoryCache(processNode, job('team', { runtimeClassName: 'hostproc' }))
    kata.put(namespaces, namespace('team'))
    expect(
      bound(
        schedulerWith({
          EDGEPLANE_POD_SECURITY_ENFORCE: 'baseline',
          EDGEPLANE_POD_SECURITY_EXEMPT_RUNTIME_CLASSES: 'hostproc',
        }).reconcile('team/job', kata, now).actions,
      ),
    ).toBe('laptop')
  })

  it('follows the cluster default for a namespace without labels', () => {
    const cache = new MemoryCache(processNode, job('team'))
    cache.put(namespaces, namespace('team'))
    expect(
      failed(
        schedulerWith({ EDGEPLANE_POD_SECURITY_ENFORCE: 'baseline:v1.30' }).reconcile(
          'team/job',
          cache,
          now,
        ).actions,
      ),
    ).toContain(`PodSecurity enforce level "baseline:v1.30"`)
  })

  it("tries the namespace's pending pods again when its labels change", () => {
    const cache = new MemoryCache(processNode, job('team'), job('other'))
    const ns = namespace('team')
    cache.put(namespaces, ns)
    expect(schedulerWith().watches.keysFor(namespaces, ns, cache)).toEqual(['team/job'])
  })
})
