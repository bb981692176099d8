import { env } from 'cloudflare:test'
import { ControllerRunner, defaultRunnerOptions } from '../../src/controllers/runtime/runner'
import { controllerDefinition } from '../../src/controllers/registry'

/** The named controller's runner over this worker's stores. */
export const runner = (name: string) =>
  new ControllerRunner(env, controllerDefinition(name, env), defaultRunnerOptions)
