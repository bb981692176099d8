import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../src/apimachinery/types'
import { sweepAction, volumeDir } from '../../../src/agent/local-path'
import { LOCAL_PATH_CLEANUP_FINALIZER } from '../../../src/apis/storage/annotations'

const volume = (
  f: {
    deleting?: boolean
    finalizer?: boolean
    phase?: string
    policy?: string
    path?: string
  } = {},
): KubeObject => ({
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  metadata: {
    name: 'pvc-1',
    finalizers: f.finalizer === false ? [] : [LOCAL_PATH_CLEANUP_FINALIZER],
    ...(f.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
  },
  spec: {
    persistentVolumeReclaimPolicy: f.policy ?? 'Delete',
    local: { path: f.path ?? '/var/lp/node-a/pvc-1' },
  },
  status: { phase: f.phase ?? 'Released' },
})

describe('local-path volumes on their node', () => {
  it('makes a live volume, releases or removes one being deleted once no longer Bound', () => {
    expect(sweepAction(volume({ phase: 'Bound' }))).toBe('make')
    expect(sweepAction(volume({ deleting: true, phase: 'Bound' }))).toBe('none')
    expect(sweepAction(volume({ deleting: true }))).toBe('remove')
    expect(sweepAction(volume({ deleting: true, policy: 'Retain' }))).toBe('release')
    expect(sweepAction(volume({ deleting: true, finalizer: false }))).toBe('none')
  })

  it('touches only a directory directly under the node root', () => {
    expect(volumeDir(volume(), '/var/lp/node-a')).toBe('/var/lp/node-a/pvc-1')
    expect(volumeDir(volume({ path: '/var/lp/node-a/../etc' }), '/var/lp/node-a')).toBeUndefined()
    expect(volumeDir(volume({ path: '/var/lp/node-a/x/y' }), '/var/lp/node-a')).toBeUndefined()
    expect(volumeDir(volume({ path: '/var/lp/node-a' }), '/var/lp/node-a')).toBeUndefined()
  })
})
