/** A container's image before it starts: pulled by its pull policy with the Pulling/Pulled events, and the kubelet's back-off when the pull fails. */
import type Docker from 'dockerode'
import type { EventType } from '../../events'
import type { Logger } from '../../log'
import { nextCrashDelay, type CrashBackoffConfig } from '../backoff'
import { pullPolicy } from './container-config'
import { ensureImage, ImageError } from './images'
import type { Ctr } from './pod-record'

export interface PullContext {
  docker: Docker
  backoff: CrashBackoffConfig
  /** the pod's name in log lines */
  podKey: string
  event(c: Ctr, type: EventType, reason: string, message: string): void
  changed(): void
  /** the pull back-off is over: the pod's containers are started again */
  retry(): void
  log?: Logger
}

/**
 * Makes sure the container's image is there and records its id. False when it is not: the
 * container waits in ErrImagePull (or another image error), then ImagePullBackOff, and `retry`
 * runs once the back-off is over. An engine error other than the image's is thrown.
 */
export async function pullImage(ctx: PullContext, c: Ctr): Promise<boolean> {
  const image = c.spec.image ?? ''
  try {
    let pullStart: number | undefined
    c.imageID = `docker://${await ensureImage(ctx.docker, image, pullPolicy(c.spec), (i) => {
      pullStart = Date.now()
      ctx.event(c, 'Normal', 'Pulling', `Pulling image "${i}"`)
    })}`
    if (pullStart === undefined)
      ctx.event(c, 'Normal', 'Pulled', `Container image "${image}" already present on machine`)
    else
      ctx.event(
        c,
        'Normal',
        'Pulled',
        `Successfully pulled image "${image}" in ${((Date.now() - pullStart) / 1000).toFixed(3)}s`,
      )
    c.pull = { streak: 0 }
    return true
  } catch (err) {
    if (!(err instanceof ImageError)) throw err
    imageFailed(ctx, c, err)
    return false
  }
}

function imageFailed(ctx: PullContext, c: Ctr, err: ImageError): void {
  c.state = { waiting: { reason: err.reason, message: err.message } }
  ctx.log?.warn(`${ctx.podKey} container ${c.name}: ${err.message}`)
  if (err.reason === 'ErrImagePull') {
    ctx.event(c, 'Warning', 'Failed', `Failed to pull image "${c.spec.image}": ${err.message}`)
    ctx.event(c, 'Warning', 'Failed', 'Error: ErrImagePull')
  } else ctx.event(c, 'Warning', err.reason, err.message)
  const next = nextCrashDelay({ streak: c.pull.streak + 1 }, 0, ctx.backoff)
  c.pull = next.state
  const delay = Math.max(next.delayMs, 1_000)
  // As the kubelet: ErrImagePull when the pull fails, ImagePullBackOff while the next attempt waits.
  const backOff = setTimeout(
    () => {
      if (c.restartTimer !== timer || err.reason !== 'ErrImagePull') return
      c.state = {
        waiting: {
          reason: 'ImagePullBackOff',
          message: `Back-off pulling image "${c.spec.image}": ${err.reason}: ${err.message}`,
        },
      }
      ctx.event(c, 'Normal', 'BackOff', `Back-off pulling image "${c.spec.image}"`)
      ctx.changed()
    },
    Math.min(1_000, delay / 2),
  )
  const timer = setTimeout(() => {
    clearTimeout(backOff)
    c.restartTimer = undefined
    ctx.retry()
  }, delay)
  c.restartTimer = timer
}
