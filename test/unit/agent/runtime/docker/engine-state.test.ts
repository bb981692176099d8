import type Docker from 'dockerode'
import { describe, expect, it } from 'vitest'
import { terminatedState } from '../../../../../src/agent/runtime/docker/engine-state'

/** What the engine's inspect says of a stopped container (the fields the kubelet's reason comes from). */
const stopped = (state: Partial<Docker.ContainerInspectInfo['State']>) =>
  ({
    Id: 'abc123',
    State: {
      ExitCode: 0,
      OOMKilled: false,
      StartedAt: '2026-11-25T10:00:00.5Z',
      FinishedAt: '2026-11-25T10:00:03Z',
      ...state,
    },
  }) as Docker.ContainerInspectInfo

describe('a stopped container’s terminated state', () => {
  it('is Completed for exit 0, Error otherwise, and OOMKilled when the engine says the kernel killed it', () => {
    expect(terminatedState(stopped({ ExitCode: 0 }))).toMatchObject({
      exitCode: 0,
      reason: 'Completed',
      containerID: 'docker://abc123',
      startedAt: '2026-11-25T10:00:00Z',
      finishedAt: '2026-11-25T10:00:03Z',
    })
    expect(terminatedState(stopped({ ExitCode: 3 }))).toMatchObject({
      exitCode: 3,
      reason: 'Error',
    })
    expect(terminatedState(stopped({ ExitCode: 137, OOMKilled: true }))).toMatchObject({
      exitCode: 137,
      reason: 'OOMKilled',
    })
    // Killed for another cause (a grace period ending): the kubelet says Error, not OOMKilled.
    expect(terminatedState(stopped({ ExitCode: 137, OOMKilled: false }))).toMatchObject({
      exitCode: 137,
      reason: 'Error',
    })
  })
})
