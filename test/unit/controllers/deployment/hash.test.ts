import { describe, expect, it } from 'vitest'
import { podTemplateHash, replicaSetName } from '../../../../src/controllers/deployment'
import {
  computeHash,
  equalIgnoreHash,
  fnv32a,
  safeEncodeString,
} from '../../../../src/controllers/shared/pod-template'
import { newDeployment } from '../../../helpers'
import { toDeployment, type PodTemplate } from '../../../../src/controllers/shared/workloads'

const bytes = (s: string) => new TextEncoder().encode(s)
const template = (): PodTemplate => ({
  metadata: { labels: { app: 'web' } },
  spec: { containers: [{ name: 'app', image: 'nginx:1', ports: [{ containerPort: 80 }] }] },
})

describe('pod-template-hash', () => {
  it.each([
    { name: 'empty input', input: '', want: 0x811c9dc5 },
    { name: '"a"', input: 'a', want: 0xe40c292c },
    { name: '"foobar"', input: 'foobar', want: 0xbf9cf968 },
  ])('FNV-32a of $name matches the reference vectors', ({ input, want }) => {
    expect(fnv32a(bytes(input))).toBe(want)
  })

  it('safe-encodes the decimal hash into the vowel-free alphabet, as rand.SafeEncodeString', () => {
    expect(safeEncodeString('0123456789')).toBe('456789bcdf')
    expect(computeHash(template())).toMatch(/^[456789bcdf]{1,10}$/)
  })

  it.each<{ name: string; other: PodTemplate }>([
    {
      name: 'keys in another order',
      other: {
        spec: { containers: [{ ports: [{ containerPort: 80 }], image: 'nginx:1', name: 'app' }] },
        metadata: { labels: { app: 'web' } },
      },
    },
    {
      name: 'the empties kubectl writes back on rollout undo',
      other: {
        metadata: { creationTimestamp: null, labels: { app: 'web' } },
        spec: {
          containers: [
            { name: 'app', image: 'nginx:1', ports: [{ containerPort: 80 }], resources: {} },
          ],
        },
      },
    },
    {
      name: 'empty annotations and null fields',
      other: {
        metadata: { labels: { app: 'web' }, annotations: {} },
        spec: {
          containers: [{ name: 'app', image: 'nginx:1', ports: [{ containerPort: 80 }], env: [] }],
          affinity: null,
        },
      },
    },
  ])('is stable under $name', ({ other }) => {
    expect(computeHash(other)).toBe(computeHash(template()))
    expect(equalIgnoreHash(other, template())).toBe(true)
  })

  it.each<{ name: string; change: (t: PodTemplate) => void }>([
    {
      name: 'a new image',
      change: (t) => ((t.spec!.containers as { image: string }[])[0].image = 'nginx:2'),
    },
    {
      name: 'a restartedAt annotation (rollout restart)',
      change: (t) =>
        (t.metadata!.annotations = { 'kubectl.kubernetes.io/restartedAt': '2025-06-01T12:00:00Z' }),
    },
    {
      name: 'an emptyDir volume (a pointer upstream, so `{}` is meaningful)',
      change: (t) => (t.spec!.volumes = [{ name: 'v', emptyDir: {} }]),
    },
  ])('changes with $name', ({ change }) => {
    const t = template()
    change(t)
    expect(computeHash(t)).not.toBe(computeHash(template()))
    expect(equalIgnoreHash(t, template())).toBe(false)
  })

  it('ignores the pod-template-hash label when comparing templates, but not other labels', () => {
    const hashed = template()
    hashed.metadata!.labels = { app: 'web', 'pod-template-hash': '5d4f8b7c9' }
    expect(equalIgnoreHash(hashed, template())).toBe(true)
    hashed.metadata!.labels = { app: 'web', tier: 'fe' }
    expect(equalIgnoreHash(hashed, template())).toBe(false)
  })

  it('is salted by the collision count, and a count of 0 differs from none', () => {
    const plain = computeHash(template())
    const zero = computeHash(template(), 0)
    const one = computeHash(template(), 1)
    expect(new Set([plain, zero, one]).size).toBe(3)
    expect(computeHash(template(), 1)).toBe(one)
  })

  it('names the ReplicaSet <deployment>-<hash> from the Deployment template and status.collisionCount', () => {
    const d = toDeployment(newDeployment('web'))
    const hash = podTemplateHash(d)
    expect(hash).toBe(computeHash(d.spec.template))
    expect(replicaSetName(d, hash)).toBe(`web-${hash}`)
    d.status.collisionCount = 2
    expect(podTemplateHash(d)).toBe(computeHash(d.spec.template, 2))
  })
})
