/**
 * The cluster's Pod Security settings: what upstream's PodSecurityConfiguration holds (the levels
 * a namespace without labels gets, and the exempt usernames, namespaces and runtime classes), read
 * from the operator's variables. Unset, every namespace is `privileged` and nothing is exempt, as
 * kube-apiserver's default configuration.
 */
import { isDns1123Label, isDns1123Subdomain } from '../../apimachinery/field-formats'
import { parseLevel, parseVersion, type LevelVersion, type Policy } from './levels'

export interface PodSecuritySettings {
  defaults: Policy
  exemptions: { usernames: string[]; namespaces: string[]; runtimeClasses: string[] }
}

/**
 * The variables, as the launcher passes them through and the Worker reads them (with the others, src/settings/variables.ts):
 * the cluster defaults, `level` or `level:version` (default `privileged`), and the exemptions,
 * comma-separated.
 */
export interface PodSecurityVariables {
  EDGEPLANE_POD_SECURITY_ENFORCE?: string
  EDGEPLANE_POD_SECURITY_AUDIT?: string
  EDGEPLANE_POD_SECURITY_WARN?: string
  EDGEPLANE_POD_SECURITY_EXEMPT_USERNAMES?: string
  EDGEPLANE_POD_SECURITY_EXEMPT_NAMESPACES?: string
  EDGEPLANE_POD_SECURITY_EXEMPT_RUNTIME_CLASSES?: string
}

export const podSecurityVariableNames: readonly (keyof PodSecurityVariables)[] = [
  'EDGEPLANE_POD_SECURITY_ENFORCE',
  'EDGEPLANE_POD_SECURITY_AUDIT',
  'EDGEPLANE_POD_SECURITY_WARN',
  'EDGEPLANE_POD_SECURITY_EXEMPT_USERNAMES',
  'EDGEPLANE_POD_SECURITY_EXEMPT_NAMESPACES',
  'EDGEPLANE_POD_SECURITY_EXEMPT_RUNTIME_CLASSES',
]

const privilegedLatest = (): LevelVersion => ({ level: 'privileged', version: 'latest' })

export const defaultPodSecuritySettings = (): PodSecuritySettings => ({
  defaults: { enforce: privilegedLatest(), audit: privilegedLatest(), warn: privilegedLatest() },
  exemptions: { usernames: [], namespaces: [], runtimeClasses: [] },
})

/** `level` or `level:version` (`baseline`, `restricted:v1.30`); unset or empty: `privileged:latest`. */
function levelVersionOf(name: string, raw: string | undefined, errors: string[]): LevelVersion {
  const value = raw?.trim() ?? ''
  if (!value) return privilegedLatest()
  const colon = value.indexOf(':')
  const levelText = colon < 0 ? value : value.slice(0, colon)
  const versionText = colon < 0 ? 'latest' : value.slice(colon + 1)
  const level = parseLevel(levelText)
  const version = parseVersion(versionText)
  if (level.error) errors.push(`${name}: level ${JSON.stringify(levelText)} ${level.error}`)
  if (version.error) errors.push(`${name}: version ${JSON.stringify(versionText)} ${version.error}`)
  return { level: level.level, version: version.version }
}

/** A comma-separated list, each entry checked; duplicates are refused as upstream refuses them. */
function listOf(
  name: string,
  raw: string | undefined,
  check: (v: string) => string[],
  errors: string[],
): string[] {
  const items = (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
  const seen = new Set<string>()
  for (const item of items) {
    const problems = check(item)
    if (problems.length) errors.push(`${name}: ${JSON.stringify(item)}: ${problems.join(', ')}`)
    else if (seen.has(item)) errors.push(`${name}: ${JSON.stringify(item)} is listed twice`)
    seen.add(item)
  }
  return [...seen]
}

/** The settings the variables give, or every problem with them (each naming its variable). */
export function parsePodSecuritySettings(
  variables: PodSecurityVariables | Record<string, string | undefined>,
): { settings: PodSecuritySettings; errors: string[] } {
  const vars = variables as PodSecurityVariables
  const errors: string[] = []
  const settings: PodSecuritySettings = {
    defaults: {
      enforce: levelVersionOf(
        'EDGEPLANE_POD_SECURITY_ENFORCE',
        vars.EDGEPLANE_POD_SECURITY_ENFORCE,
        errors,
      ),
      audit: levelVersionOf(
        'EDGEPLANE_POD_SECURITY_AUDIT',
        vars.EDGEPLANE_POD_SECURITY_AUDIT,
        errors,
      ),
      warn: levelVersionOf('EDGEPLANE_POD_SECURITY_WARN', vars.EDGEPLANE_POD_SECURITY_WARN, errors),
    },
    exemptions: {
      usernames: listOf(
        'EDGEPLANE_POD_SECURITY_EXEMPT_USERNAMES',
        vars.EDGEPLANE_POD_SECURITY_EXEMPT_USERNAMES,
        () => [],
        errors,
      ),
      namespaces: listOf(
        'EDGEPLANE_POD_SECURITY_EXEMPT_NAMESPACES',
        vars.EDGEPLANE_POD_SECURITY_EXEMPT_NAMESPACES,
        isDns1123Label,
        errors,
      ),
      runtimeClasses: listOf(
        'EDGEPLANE_POD_SECURITY_EXEMPT_RUNTIME_CLASSES',
        vars.EDGEPLANE_POD_SECURITY_EXEMPT_RUNTIME_CLASSES,
        isDns1123Subdomain,
        errors,
      ),
    },
  }
  return { settings, errors }
}
