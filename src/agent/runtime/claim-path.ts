/**
 * Where a pod's PersistentVolumeClaim lives on this node: the bound volume's `hostPath` or `local`
 * path. A volume of the local-path provisioner is a directory the agent makes on first use, under
 * the root it advertises on its Node.
 */
import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { KubeObject } from '../../apimachinery/types'
import { LOCAL_PATH_PROVISIONER, PROVISIONED_BY_ANNOTATION } from '../../apis/storage/annotations'

/** A GET through the API: the object, or undefined on 404. */
export type ApiGet = (path: string) => Promise<KubeObject | undefined>

/** The directory under which this node's local-path volumes are made. */
export const localPathRoot = (stateDir: string, nodeName: string): string =>
  join(stateDir, 'local-path', nodeName)

/** The bound volume of a claim in the pod's namespace; throws with the kubelet's wording when there is none. */
export async function boundVolume(
  pod: KubeObject,
  claimName: string,
  get: ApiGet,
): Promise<KubeObject> {
  const ns = pod.metadata.namespace ?? 'default'
  const pvc = await get(`/api/v1/namespaces/${ns}/persistentvolumeclaims/${claimName}`)
  if (!pvc) throw new Error(`persistentvolumeclaim "${claimName}" not found`)
  const volumeName = (pvc.spec as { volumeName?: string } | undefined)?.volumeName
  if (!volumeName || (pvc.status as { phase?: string } | undefined)?.phase !== 'Bound')
    throw new Error(`persistentvolumeclaim "${claimName}" is not bound`)
  const pv = await get(`/api/v1/persistentvolumes/${volumeName}`)
  if (!pv) throw new Error(`persistentvolume "${volumeName}" not found`)
  return pv
}

/**
 * The host path of a bound volume with its `hostPath` type semantics for the caller to check:
 * `local` volumes must exist (a directory), local-path ones are made here first.
 */
export function volumeHostPath(pv: KubeObject): { path: string; type: string } {
  const spec = (pv.spec ?? {}) as {
    hostPath?: { path: string; type?: string }
    local?: { path: string }
  }
  if (spec.hostPath)
    return { path: spec.hostPath.path, type: spec.hostPath.type ?? 'DirectoryOrCreate' }
  if (spec.local) {
    if (pv.metadata.annotations?.[PROVISIONED_BY_ANNOTATION] === LOCAL_PATH_PROVISIONER)
      makeVolumeDir(spec.local.path)
    return { path: spec.local.path, type: 'Directory' }
  }
  throw new Error(
    `persistentvolume "${pv.metadata.name}" is neither hostPath nor local: this node mounts only local paths`,
  )
}

/** A provisioned volume's directory, writable by any user the pod runs as (as an emptyDir). */
function makeVolumeDir(path: string): void {
  if (existsSync(path) && statSync(path).isDirectory()) return
  mkdirSync(path, { recursive: true })
  chmodSync(path, 0o777)
}
