/** Creating and starting one container of a pod: its image, its instance config, the engine calls. */
import type Docker from 'dockerode'
import { formatTime } from '../../../apimachinery/meta-time'
import { nextCrashDelay } from '../backoff'
import { podKey } from '../types'
import type { ContainerHost } from './container-host'
import { afterExit } from './container-exit'
import { engineMessage } from './engine'
import { terminatedState } from './engine-state'
import { pullImage } from './image-pull'
import { instanceConfig } from './instance-config'
import type { Ctr, PodRec } from './pod-record'

/** Pulls the image, then creates and starts one container of the pod. */
export async function startContainer(host: ContainerHost, rec: PodRec, c: Ctr): Promise<void> {
  if (c.configError) {
    c.state = { waiting: { reason: 'CreateContainerConfigError', message: c.configError } }
    return
  }
  const pulled = await pullImage(
    {
      docker: host.docker,
      backoff: host.backoff,
      podKey: podKey(rec.pod),
      event: (x, type, reason, message) => host.event(rec, x, type, reason, message),
      changed: () => host.changed(rec.uid),
      retry: () => host.advanceLater(rec),
      log: host.log,
    },
    c,
  )
  if (!pulled) return
  const made = instanceConfig(rec, c, host.nodeName)
  if ('configError' in made) {
    c.state = { waiting: { reason: 'CreateContainerConfigError', message: made.configError } }
    return
  }
  const { restartCount } = made
  let created: Docker.Container
  try {
    created = await host.docker.createContainer(made.config)
  } catch (err) {
    c.state = { waiting: { reason: 'CreateContainerError', message: engineMessage(err) } }
    host.event(rec, c, 'Warning', 'Failed', `Error: ${engineMessage(err)}`)
    // Retried with the crash-loop back-off (the engine may refuse limits its cgroups cannot enforce).
    const next = nextCrashDelay({ streak: c.crash.streak + 1 }, 0, host.backoff)
    c.crash = next.state
    return host.scheduleRestart(rec, c, next.delayMs)
  }
  host.event(rec, c, 'Normal', 'Created', `Created container ${c.name}`)
  c.restartCount = restartCount
  c.everStarted = true
  if (c.previousId) await host.remove(c.previousId)
  c.previousId = c.id
  c.id = created.id
  c.containerID = `docker://${created.id}`
  c.ready = false
  c.started = false
  try {
    await created.start()
  } catch (err) {
    const info = await created.inspect()
    c.state = {
      terminated: {
        ...terminatedState(info),
        exitCode: 128,
        reason: 'StartError',
        message: engineMessage(err),
      },
    }
    host.event(rec, c, 'Warning', 'Failed', `Error: ${engineMessage(err)}`)
    return afterExit(host, rec, c, Date.now())
  }
  c.running = true
  // The start call returns once the process runs: its time is the start time, without another round trip.
  c.startedAtMs = Date.now()
  c.state = { running: { startedAt: formatTime(c.startedAtMs) } }
  host.event(rec, c, 'Normal', 'Started', `Started container ${c.name}`)
  host.log?.debug(`started ${podKey(rec.pod)} container ${c.name} (${created.id.slice(0, 12)})`)
  host.running(rec, c, created.id)
}
