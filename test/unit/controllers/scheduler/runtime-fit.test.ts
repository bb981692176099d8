import { describe, expect, it } from 'vitest'
import { filterNode } from '../../../../src/controllers/scheduler/filter'
import { newNode, newPod } from '../../../helpers'
import { REASON_RUNTIME } from '../../../../src/controllers/scheduler/runtime-fit'
import { RUNTIME_LABEL } from '../../../../src/agent-protocol/runtime-label'

const load = { requested: {}, podCount: 0 }
const allocatable = { cpu: 4, memory: 8 * 2 ** 30, pods: 110 }
const reasons = (pod: ReturnType<typeof newPod>, node: ReturnType<typeof newNode>) =>
  filterNode(pod, node, {}, allocatable, load)?.reasons ?? []

describe('a process node takes only pods whose containers all have a command', () => {
  const processNode = newNode('p', { labels: { [RUNTIME_LABEL]: 'process' } })
  const imageOnly = newPod('web')
  const withCommand = newPod('job', {
    spec: { containers: [{ name: 'app', image: 'busybox', command: ['sleep', '1'] }] },
  })
  const initWithout = newPod('init', {
    spec: {
      initContainers: [{ name: 'setup', image: 'busybox' }],
      containers: [{ name: 'app', image: 'busybox', command: ['sleep', '1'] }],
    },
  })

  it.each([
    ['an image-only pod is kept off a process node', imageOnly, processNode, [REASON_RUNTIME]],
    ['a pod with commands fits a process node', withCommand, processNode, []],
    [
      'an init container without a command keeps the pod off too',
      initWithout,
      processNode,
      [REASON_RUNTIME],
    ],
    [
      'a docker node takes an image-only pod',
      imageOnly,
      newNode('d', { labels: { [RUNTIME_LABEL]: 'docker' } }),
      [],
    ],
    ['a node advertising no runtime takes any pod', imageOnly, newNode('x'), []],
  ])('%s', (_, pod, node, want) => {
    expect(reasons(pod, node)).toEqual(want)
  })
})
