/** The process runtime's options, and the environment its containers start from. */
import type { Logger } from '../log'
import type { CrashBackoffConfig } from './backoff'
import type { ApiGet } from './claim-path'

export interface ProcessRuntimeOptions {
  /** the node's IP: every pod's IP, since processes share the host's network */
  nodeIP: string
  /** where httpGet and tcpSocket probes connect when the probe names no host */
  probeHost?: string
  backoff?: CrashBackoffConfig
  logLimitBytes?: number
  /** variables every container starts with (PATH, HOME …) before its own */
  baseEnv?: Record<string, string>
  log?: Logger
  /** grace period for the containers still running when the agent exits */
  shutdownGraceSeconds?: number
  /** where each pod gets its working directory (`<podsDir>/<uid>`) when its containers set none */
  podsDir: string
  /** reads the claims and volumes of the pods' persistentVolumeClaim volumes */
  get?: ApiGet
}

/** The agent's environment passed on to containers: enough to find programs and a home. */
export function defaultBaseEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {}
  for (const k of ['PATH', 'HOME', 'USER', 'LANG', 'TMPDIR', 'TZ'])
    if (env[k] !== undefined) out[k] = env[k]!
  out.PATH ??= '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
  return out
}
