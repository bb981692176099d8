import type { Env } from '../env'
import { controllerNames } from './registry'
import { meteredStub } from '../limits/strict'

/** The ControllerHost Durable Object that runs the controller `name`. */
export function hostFor(env: Env, name: string) {
  return meteredStub(env, env.CONTROLLER_HOST.get(env.CONTROLLER_HOST.idFromName(`controller/${name}`)), `controller ${name}`)
}

/** Makes sure every controller has an alarm set; a controller that lost its alarm runs again. */
export async function resyncControllers(env: Env): Promise<void> {
  await Promise.all(controllerNames().map((name) => hostFor(env, name).ensureAlarm(name)))
}
