import { describe, expect, it } from 'vitest'
import { FieldSet, keyElement, pathString, valueElement } from '../../../../src/apis/ssa/fieldset'
import { asRecord } from '../../../../src/apis/ssa/walk'
import { rootType } from '../../../../src/apis/ssa/types'
import { findResource } from '../../../../src/apis/registry'

const deployments = findResource('apps', 'v1', 'deployments')!

describe('FieldsV1 encoding', () => {
  it('encodes list-map items by key, with "." for members that have children', () => {
    const set = asRecord(rootType(deployments), {
      metadata: { labels: { app: 'web' } },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        template: {
          spec: { containers: [{ name: 'nginx', image: 'nginx', ports: [{ containerPort: 80 }] }] },
        },
      },
    })
    expect(set.toFieldsV1()).toEqual({
      'f:metadata': { 'f:labels': { 'f:app': {} } },
      'f:spec': {
        'f:replicas': {},
        'f:selector': {},
        'f:template': {
          'f:spec': {
            'f:containers': {
              'k:{"name":"nginx"}': {
                '.': {},
                'f:image': {},
                'f:name': {},
                'f:ports': {
                  'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} },
                },
              },
            },
          },
        },
      },
    })
  })

  it('encodes set items as values and round-trips', () => {
    const set = FieldSet.of([
      ['f:metadata', 'f:finalizers', valueElement('a/b')],
      ['f:spec', 'f:x'],
    ])
    const v1 = set.toFieldsV1()
    expect(v1).toEqual({
      'f:metadata': { 'f:finalizers': { 'v:"a/b"': {} } },
      'f:spec': { 'f:x': {} },
    })
    expect(FieldSet.fromFieldsV1(v1).equals(set)).toBe(true)
  })

  it('keeps "." members apart from their children in set algebra', () => {
    const item = ['f:spec', keyElement({ name: 'a' })]
    const a = FieldSet.of([item, [...item, 'f:image']])
    const b = FieldSet.of([[...item, 'f:image']])
    expect(a.difference(b).toFieldsV1()).toEqual({ 'f:spec': { 'k:{"name":"a"}': {} } })
    expect(a.intersection(b).paths()).toEqual([[...item, 'f:image']])
    expect(b.touches(item)).toBe(true)
    expect(b.has(item)).toBe(false)
  })

  it('prints paths as upstream does in conflicts', () => {
    expect(pathString(['f:spec', 'f:replicas'])).toBe('.spec.replicas')
    expect(pathString(['f:spec', 'f:containers', keyElement({ name: 'nginx' }), 'f:image'])).toBe(
      '.spec.containers[name="nginx"].image',
    )
    expect(pathString(['f:metadata', 'f:finalizers', valueElement('x')])).toBe(
      '.metadata.finalizers[="x"]',
    )
  })
})
