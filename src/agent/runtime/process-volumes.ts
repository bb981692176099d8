/**
 * PersistentVolumeClaims for the process runtime. Processes share the host's filesystem, so a
 * volume cannot be mounted at its `mountPath`: each volumeMount of a claim becomes a symbolic link
 * at that path inside the pod's own directory (the containers' working directory unless they set
 * one), pointing at the volume's directory on this node (and its `subPath`). `/data` is then
 * `data` relative to where the container starts.
 */
import { existsSync, lstatSync, mkdirSync, readlinkSync, rmSync, symlinkSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import type { KubeObject } from '../../apimachinery/types'
import { podContainers } from '../container-env'
import { boundVolume, volumeHostPath, type ApiGet } from './claim-path'

type Mount = { name: string; mountPath: string; subPath?: string }
const mountsOf = (c: Record<string, unknown>): Mount[] =>
  Array.isArray(c.volumeMounts) ? (c.volumeMounts as Mount[]) : []

interface Volume {
  name: string
  persistentVolumeClaim?: { claimName: string }
}

/** Whether the pod has a claim volume mounted by one of its containers. */
export function mountsClaims(pod: KubeObject): boolean {
  const claims = new Set(
    ((pod.spec as { volumes?: Volume[] } | undefined)?.volumes ?? [])
      .filter((v) => v.persistentVolumeClaim)
      .map((v) => v.name),
  )
  return podContainers(pod).some((c) => mountsOf(c).some((m) => claims.has(m.name)))
}

/** A path inside a directory: relative, without `..`. */
function inside(path: string): string {
  const n = normalize(path.replace(/^\/+/, ''))
  if (!n || n === '.' || n.split('/').includes('..'))
    throw new Error(`path "${path}" must name a directory inside the volume or pod without '..'`)
  return n
}

/**
 * Links every claim volumeMount of the pod into `podDir`; throws the kubelet's FailedMount message
 * for the first volume that cannot be set up.
 */
export async function linkClaimVolumes(
  pod: KubeObject,
  podDir: string,
  get: ApiGet,
): Promise<void> {
  const volumes = new Map(
    ((pod.spec as { volumes?: Volume[] } | undefined)?.volumes ?? []).map((v) => [v.name, v]),
  )
  const paths = new Map<string, string>()
  for (const c of podContainers(pod)) {
    for (const m of mountsOf(c)) {
      const claim = volumes.get(m.name)?.persistentVolumeClaim
      if (!claim) continue
      try {
        if (!paths.has(m.name)) {
          const { path } = volumeHostPath(await boundVolume(pod, claim.claimName, get))
          if (!existsSync(path)) throw new Error(`${path} does not exist`)
          paths.set(m.name, path)
        }
        let target = paths.get(m.name)!
        if (m.subPath) {
          target = join(target, inside(m.subPath))
          mkdirSync(target, { recursive: true })
        }
        const link = join(podDir, inside(m.mountPath))
        mkdirSync(dirname(link), { recursive: true })
        const current = lstatSync(link, { throwIfNoEntry: false })
        if (current?.isSymbolicLink() && readlinkSync(link) === target) continue
        if (current) rmSync(link, { recursive: true, force: true })
        symlinkSync(target, link, 'dir')
      } catch (err) {
        throw new Error(
          `MountVolume.SetUp failed for volume "${m.name}" : ${(err as Error).message}`,
        )
      }
    }
  }
}
