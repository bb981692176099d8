import { describe, expect, it } from 'vitest'
import { formatCause } from '../../../../src/apimachinery/field-errors'
import { validateWorkload } from '../../../../src/apis/validation'
import type { KubeObject } from '../../../../src/apimachinery/types'
import { podManifest } from '../../../helpers'

const labelMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"

const lines = (obj: KubeObject) => validateWorkload(String(obj.kind), obj).map(formatCause)

describe('volumes and volume mounts', () => {
  it('accepts mounts of the pod volumes, in containers and init containers', () => {
    const spec = {
      volumes: [
        { name: 'data', emptyDir: {} },
        { name: 'config', configMap: { name: 'c' } },
      ],
      initContainers: [
        { name: 'init', image: 'busybox', volumeMounts: [{ name: 'data', mountPath: '/data' }] },
      ],
      containers: [
        {
          name: 'app',
          image: 'nginx',
          volumeMounts: [
            { name: 'data', mountPath: '/a', subPath: 'x' },
            { name: 'data', mountPath: '/b', subPath: 'y' },
            { name: 'config', mountPath: '/etc/c' },
          ],
        },
      ],
    }
    expect(lines(podManifest('p', { spec }))).toEqual([])
  })

  it('refuses a mount of a volume the pod does not have, as upstream names it', () => {
    // The kubernetes/website example pods/storage/projected-clustertrustbundle.yaml mounts
    // `token-vol` but its volume is `root-certificates-vol`.
    const spec = {
      volumes: [{ name: 'root-certificates-vol', projected: { sources: [] } }],
      containers: [
        {
          name: 'container-test',
          image: 'busybox',
          volumeMounts: [{ name: 'token-vol', mountPath: '/root-certificates', readOnly: true }],
        },
      ],
    }
    expect(lines(podManifest('p', { spec }))).toEqual([
      'spec.containers[0].volumeMounts[0].name: Not found: "token-vol"',
    ])
  })

  it('checks the mounts of a workload template and of init containers against its volumes', () => {
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd' },
      spec: {
        selector: { matchLabels: { app: 'a' } },
        template: {
          metadata: { labels: { app: 'a' } },
          spec: {
            initContainers: [
              {
                name: 'init',
                image: 'busybox',
                volumeMounts: [{ name: 'missing', mountPath: '/m' }],
              },
            ],
            containers: [{ name: 'app', image: 'nginx' }],
          },
        },
      },
    } as KubeObject
    expect(lines(deployment)).toEqual([
      'spec.template.spec.initContainers[0].volumeMounts[0].name: Not found: "missing"',
    ])
  })

  it('refuses a mount without a name or path, a repeated mount path, and bad or repeated volume names', () => {
    const spec = {
      volumes: [
        { name: 'data', emptyDir: {} },
        { name: 'data', emptyDir: {} },
        { name: 'Bad_Name', emptyDir: {} },
        { emptyDir: {} },
      ],
      containers: [
        {
          name: 'app',
          image: 'nginx',
          volumeMounts: [
            { name: 'data', mountPath: '/a' },
            { name: 'data', mountPath: '/a' },
            { mountPath: '/b' },
            { name: 'data' },
          ],
        },
      ],
    }
    expect(lines(podManifest('p', { spec }))).toEqual([
      'spec.volumes[1].name: Duplicate value: "data"',
      `spec.volumes[2].name: Invalid value: "Bad_Name": ${labelMsg}`,
      'spec.volumes[3].name: Required value',
      'spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/a": must be unique',
      'spec.containers[0].volumeMounts[2].name: Required value',
      'spec.containers[0].volumeMounts[2].name: Not found: ""',
      'spec.containers[0].volumeMounts[3].mountPath: Required value',
    ])
  })
})
