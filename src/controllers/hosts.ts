import type { HostBindings } from './bindings'
import { controllerDefinition, controllerNames } from './registry'
import { pods, sameResource } from './resources'
import { meteredStub } from '../limits/strict'
import { settingsOf } from '../settings/settings'

/**
 * The host every controller that watches pods runs in: they share one set of informer caches, so
 * the cluster's pods are held once (each as the union of the fields those controllers read), not
 * once per controller. Every other controller has a host of its own, named after it.
 */
export const sharedPodsHost = 'pods'

let hostOf: Map<string, string> | undefined

function hostNames(): Map<string, string> {
  if (!hostOf) {
    hostOf = new Map()
    for (const name of controllerNames()) {
      const watchesPods = controllerDefinition(name, {}).watches.kinds.some((r) =>
        sameResource(r, pods),
      )
      hostOf.set(name, watchesPods ? sharedPodsHost : name)
    }
  }
  return hostOf
}

/** The host a controller runs in. */
export function hostOfController(name: string): string {
  const host = hostNames().get(name)
  if (host === undefined) throw new Error(`unknown controller ${name}`)
  return host
}

/** The controllers a host runs, in registry order. */
export function controllersOfHost(host: string): string[] {
  return [...hostNames()].filter(([, h]) => h === host).map(([name]) => name)
}

/** Every host, once. */
export function hostNamesAll(): string[] {
  return [...new Set(hostNames().values())]
}

/** The Durable Object name of a host. */
export const hostObjectName = (host: string) => `controller/${host}`

/** The ControllerHost Durable Object that runs the controller `name`. */
export function hostFor(env: HostBindings, name: string) {
  const host = hostOfController(name)
  return meteredStub(
    settingsOf(env).strictLimits,
    env.CONTROLLER_HOST.get(env.CONTROLLER_HOST.idFromName(hostObjectName(host))),
    `controller host ${host}`,
  )
}

/** Makes sure every host has an alarm set; a host that lost its alarm runs again. */
export async function resyncControllers(env: HostBindings): Promise<void> {
  const anyControllerOf = hostNamesAll().map((host) => controllersOfHost(host)[0]!)
  await Promise.all(anyControllerOf.map((name) => hostFor(env, name).ensureAlarm(name)))
}
