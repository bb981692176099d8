import type { Container, PodSpec } from './shapes'
import {
  type FieldCause,
  duplicate,
  invalid,
  notFound,
  required,
} from '../../apimachinery/field-errors'
import { validateDns1123Label } from '../../apimachinery/field-formats'

/**
 * The pod's volumes and the containers' mounts of them, as ValidateVolumes and
 * ValidateVolumeMounts (pkg/apis/core/validation) check them: a volume has a unique DNS-1123 label
 * for a name; a mount names one of those volumes and a mount path no other mount of the container
 * uses.
 */

/** Causes for `spec.volumes`, and the names a mount may refer to. */
export function validateVolumeNames(
  volumes: PodSpec['volumes'],
  path: string,
): { causes: FieldCause[]; names: Set<string> } {
  const causes: FieldCause[] = []
  // As upstream, only a volume without errors counts: it alone can be mounted or repeated.
  const names = new Set<string>()
  for (const [i, v] of (volumes ?? []).entries()) {
    const at = `${path}[${i}].name`
    const name = v.name ?? ''
    const own = name ? validateDns1123Label(name, at) : [required(at)]
    if (names.has(name)) own.push(duplicate(at, name))
    if (own.length === 0) names.add(name)
    causes.push(...own)
  }
  return { causes, names }
}

/** Causes for one container's `volumeMounts` at `path`, against the pod's volume names. */
export function validateVolumeMounts(
  mounts: Container['volumeMounts'],
  volumes: ReadonlySet<string>,
  path: string,
): FieldCause[] {
  const causes: FieldCause[] = []
  const mountPaths = new Set<string>()
  for (const [i, m] of (mounts ?? []).entries()) {
    const at = `${path}[${i}]`
    const name = m.name ?? ''
    if (!name) causes.push(required(`${at}.name`))
    if (!volumes.has(name)) causes.push(notFound(`${at}.name`, name))
    const mountPath = m.mountPath ?? ''
    if (!mountPath) causes.push(required(`${at}.mountPath`))
    if (mountPaths.has(mountPath))
      causes.push(invalid(`${at}.mountPath`, mountPath, 'must be unique'))
    mountPaths.add(mountPath)
  }
  return causes
}
