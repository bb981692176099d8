/**
 * The Worker's Pod Security settings, parsed once from its variables with the others
 * (EDGEPLANE_POD_SECURITY_*, see src/apis/pod-security/settings.ts). Settings that do not parse
 * leave every write Pod Security admits refused with an InternalError naming them, as
 * kube-apiserver refuses to start with a bad PodSecurityConfiguration.
 */
import type { Status } from '../../apimachinery/types'
import { failure } from '../../apimachinery/status'
import type { PodSecuritySettings } from '../../apis/pod-security/settings'
import { settingsOf } from '../../settings/settings'
import type { Variables } from '../../settings/variables'

/** The settings, or the Status every admitted write is refused with while they are invalid. */
export function podSecuritySettings(env: Variables): {
  settings: PodSecuritySettings
  refused?: Status
} {
  const { settings, errors } = settingsOf(env).podSecurity
  if (!errors.length) return { settings }
  return {
    settings,
    refused: failure(
      500,
      'InternalError',
      `Internal error occurred: PodSecurity is misconfigured: ${errors.join('; ')}`,
    ),
  }
}
