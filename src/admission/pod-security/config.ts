/**
 * The Worker's Pod Security settings, read once per isolate from its variables
 * (EDGEPLANE_POD_SECURITY_*, see src/apis/pod-security/settings.ts). Settings that do not parse
 * leave every write Pod Security admits refused with an InternalError naming them, as
 * kube-apiserver refuses to start with a bad PodSecurityConfiguration.
 */
import type { Status } from '../../apimachinery/types'
import { failure } from '../../apimachinery/status'
import { parsePodSecuritySettings, podSecurityVariableNames, type PodSecuritySettings, type PodSecurityVariables } from '../../apis/pod-security/settings'

let cached: { key: string; settings: PodSecuritySettings; errors: string[] } | undefined

/** The settings, or the Status every admitted write is refused with while they are invalid. */
export function podSecuritySettings(env: PodSecurityVariables): { settings: PodSecuritySettings; refused?: Status } {
  const key = JSON.stringify(podSecurityVariableNames.map((n) => env[n] ?? ''))
  if (cached?.key !== key) cached = { key, ...parsePodSecuritySettings(env) }
  if (!cached.errors.length) return { settings: cached.settings }
  return { settings: cached.settings, refused: failure(500, 'InternalError', `Internal error occurred: PodSecurity is misconfigured: ${cached.errors.join('; ')}`) }
}
