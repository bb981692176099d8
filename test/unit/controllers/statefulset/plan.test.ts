import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import {
  planOrdinals,
  type PlanInput,
  type Step,
} from '../../../../src/controllers/statefulset/plan'
import { T0 } from '../../../fixtures/memory-cache'
import { formatTime } from '../../../../src/apimachinery/meta-time'
import type { Json } from '../../../../src/apimachinery/json-value'
import { newPod } from '../../../helpers'

type State = 'ready' | 'pending' | 'terminating' | 'failed'

/** A member pod `web-<ordinal>` at a revision, in a state. */
function member(ordinal: number, state: State = 'ready', revision = 'web-new'): KubeObject {
  const status: Json =
    state === 'ready' || state === 'terminating'
      ? {
          phase: 'Running',
          conditions: [
            { type: 'Ready', status: 'True', lastTransitionTime: formatTime(T0 - 60_000) },
          ],
        }
      : { phase: state === 'failed' ? 'Failed' : 'Pending' }
  return newPod(`web-${ordinal}`, {
    uid: `uid-${ordinal}`,
    labels: { 'controller-revision-hash': revision },
    status,
    deletionTimestamp: state === 'terminating' ? formatTime(T0) : undefined,
  })
}

const base: Omit<PlanInput, 'pods' | 'replicas'> = {
  monotonic: true,
  strategy: 'RollingUpdate',
  partition: 0,
  currentRevision: 'web-old',
  updateRevision: 'web-new',
  now: T0,
}

/** Steps as short strings: `+2` create, `-2` delete (why), `~2` identity. */
function show(steps: Step[]): string[] {
  return steps.map((s) =>
    s.type === 'create'
      ? `+${s.ordinal}${s.revision === 'current' ? 'c' : ''}`
      : s.type === 'delete'
        ? `-${s.pod.metadata.name!.slice(4)} ${s.why}`
        : `~${s.pod.metadata.name!.slice(4)}`,
  )
}

describe('statefulset ordinal decisions (updateStatefulSet)', () => {
  it.each<{
    name: string
    input: Partial<PlanInput> & Pick<PlanInput, 'pods' | 'replicas'>
    steps: string[]
  }>([
    {
      name: 'OrderedReady creates only the lowest missing ordinal',
      input: { replicas: 3, pods: [] },
      steps: ['+0'],
    },
    {
      name: 'OrderedReady waits for the previous pod to be Running and Ready',
      input: { replicas: 3, pods: [member(0, 'pending')] },
      steps: [],
    },
    {
      name: 'OrderedReady creates the next once its predecessors are ready',
      input: { replicas: 3, pods: [member(0), member(1)] },
      steps: ['+2'],
    },
    {
      name: 'OrderedReady fills a gap before going on',
      input: { replicas: 3, pods: [member(0), member(2)] },
      steps: ['+1'],
    },
    {
      name: 'Parallel creates every missing ordinal at once',
      input: { replicas: 3, pods: [member(1, 'pending')], monotonic: false },
      steps: ['+0', '+2'],
    },
    {
      name: 'scale-down removes the highest ordinal first, one at a time',
      input: { replicas: 1, pods: [member(0), member(1), member(2)] },
      steps: ['-2 condemned'],
    },
    {
      name: 'scale-down waits while a condemned pod terminates',
      input: { replicas: 1, pods: [member(0), member(1), member(2, 'terminating')] },
      steps: [],
    },
    {
      name: 'scale-down waits for every replica to be healthy',
      input: { replicas: 1, pods: [member(0, 'pending'), member(1), member(2)] },
      steps: [],
    },
    {
      name: 'an unhealthy condemned pod that is the first unhealthy one may go',
      input: { replicas: 1, pods: [member(0), member(1), member(2, 'pending')] },
      steps: ['-2 condemned'],
    },
    {
      name: 'Parallel scale-down removes every condemned pod',
      input: { replicas: 1, pods: [member(0), member(1), member(2)], monotonic: false },
      steps: ['-2 condemned', '-1 condemned'],
    },
    {
      name: 'a finished pod is deleted to be recreated',
      input: { replicas: 2, pods: [member(0, 'failed'), member(1)] },
      steps: ['-0 finished'],
    },
    {
      name: 'rolling update deletes the highest ordinal not at the update revision',
      input: {
        replicas: 3,
        pods: [
          member(0, 'ready', 'web-old'),
          member(1, 'ready', 'web-old'),
          member(2, 'ready', 'web-old'),
        ],
      },
      steps: ['-2 update'],
    },
    {
      name: 'rolling update waits for the replacement to be ready',
      input: {
        replicas: 3,
        pods: [member(0, 'ready', 'web-old'), member(1, 'ready', 'web-old'), member(2, 'pending')],
      },
      steps: [],
    },
    {
      name: 'rolling update goes on down once the replacement is ready',
      input: {
        replicas: 3,
        pods: [member(0, 'ready', 'web-old'), member(1, 'ready', 'web-old'), member(2)],
      },
      steps: ['-1 update'],
    },
    {
      name: 'a partition keeps ordinals below it at the current revision',
      input: {
        replicas: 3,
        partition: 2,
        pods: [member(0, 'ready', 'web-old'), member(1, 'ready', 'web-old'), member(2)],
      },
      steps: [],
    },
    {
      name: 'a pod created below the partition gets the current revision',
      input: { replicas: 3, partition: 2, pods: [member(0, 'ready', 'web-old')] },
      steps: ['+1c'],
    },
    {
      name: 'OnDelete never deletes for an update',
      input: {
        replicas: 2,
        strategy: 'OnDelete',
        pods: [member(0, 'ready', 'web-old'), member(1, 'ready', 'web-old')],
      },
      steps: [],
    },
    {
      name: 'a pod that lost its identity labels is repaired',
      input: {
        replicas: 2,
        pods: [member(0), member(1)],
        identityOk: (p) => p.metadata.name !== 'web-1',
      },
      steps: ['~1'],
    },
  ])('$name', ({ input, steps }) => {
    expect(show(planOrdinals({ ...base, ...input }))).toEqual(steps)
  })
})
