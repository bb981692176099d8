import { describe, expect, it } from 'vitest'
import { formatCause } from '../../../../src/apimachinery/field-errors'
import { validateWorkload } from '../../../../src/apis/validation'
import type { KubeObject } from '../../../../src/apimachinery/types'
import { podManifest } from '../../../helpers'

const lines = (...tolerations: unknown[]) =>
  validateWorkload('Pod', podManifest('p', { spec: { tolerations } })).map(formatCause)

describe('pod tolerations', () => {
  it('accepts the tolerations of the kubernetes/website examples', () => {
    expect(
      lines(
        { key: 'example-key', operator: 'Exists', effect: 'NoSchedule' },
        { key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' },
        {
          key: 'node.cloudprovider.kubernetes.io/uninitialized',
          value: 'true',
          effect: 'NoSchedule',
        },
        { key: 'dedicated', value: 'test-team', effect: 'NoSchedule' },
        {
          key: 'node.kubernetes.io/unreachable',
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 6000,
        },
        { operator: 'Exists' },
      ),
    ).toEqual([])
  })

  it('refuses an operator other than Equal and Exists, as a v1.32 server does', () => {
    // The kubernetes/website example pods/pod-with-numeric-toleration.yaml.
    expect(
      lines({
        key: 'servicelevel.organization.example/agreed-service-level',
        operator: 'Gt',
        value: '900',
        effect: 'NoSchedule',
      }),
    ).toEqual([
      'spec.tolerations[0].operator: Unsupported value: "Gt": supported values: "Equal", "Exists"',
    ])
  })

  it('refuses what upstream refuses, on the fields it names', () => {
    expect(lines({ operator: 'Equal', value: 'x' })).toEqual([
      'spec.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
    ])
    expect(lines({ key: 'k', operator: 'Exists', value: 'v' })).toEqual([
      'spec.tolerations[0].operator: Invalid value: core.Toleration{Key:"k", Operator:"Exists", Value:"v", Effect:"", TolerationSeconds:(*int64)(nil)}: value must be empty when `operator` is \'Exists\'',
    ])
    expect(lines({ key: 'k', effect: 'NoSchedule', tolerationSeconds: 5 })).toEqual([
      'spec.tolerations[0].effect: Invalid value: "NoSchedule": effect must be \'NoExecute\' when `tolerationSeconds` is set',
    ])
    expect(lines({ key: 'k', effect: 'Sometimes' })).toEqual([
      'spec.tolerations[0].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
    ])
    expect(lines({ key: 'bad key', operator: 'Exists' })[0]).toMatch(
      /^spec\.tolerations\[0\]\.key: Invalid value: "bad key": name part must consist of/,
    )
  })

  it('checks the tolerations of a workload template', () => {
    const ds = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'd' },
      spec: {
        selector: { matchLabels: { a: 'b' } },
        template: {
          metadata: { labels: { a: 'b' } },
          spec: {
            containers: [{ name: 'c', image: 'nginx' }],
            tolerations: [{ key: 'k', operator: 'Lt', value: '1' }],
          },
        },
      },
    } as KubeObject
    expect(validateWorkload('DaemonSet', ds).map(formatCause)).toEqual([
      'spec.template.spec.tolerations[0].operator: Unsupported value: "Lt": supported values: "Equal", "Exists"',
    ])
  })
})
