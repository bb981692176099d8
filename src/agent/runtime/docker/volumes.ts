/**
 * A pod's volumes as directories on this node, bind-mounted into its containers: emptyDir (a
 * directory per pod, deleted with it), hostPath, configMap / secret / downwardAPI / projected
 * (files written from the API objects and rewritten when they change), and a
 * PersistentVolumeClaim bound to a hostPath or local PersistentVolume.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import type { KubeObject } from '../../../apimachinery/types'
import { configMapData, fieldRefValue, secretData } from '../../container-env'
import type { DockerContainerSpec } from './container-config'

import { boundVolume, volumeHostPath, type ApiGet } from '../claim-path'
export type { ApiGet }

/** A volume cannot be set up: the kubelet's FailedMount message. */
export class VolumeError extends Error {}

interface KeyToPath {
  key: string
  path: string
  mode?: number
}
interface ObjectSource {
  name?: string
  items?: KeyToPath[]
  optional?: boolean
  defaultMode?: number
}
interface DownwardItem {
  path: string
  fieldRef?: { fieldPath: string }
  resourceFieldRef?: unknown
  mode?: number
}
interface Volume {
  name: string
  emptyDir?: object
  hostPath?: { path: string; type?: string }
  configMap?: ObjectSource
  secret?: ObjectSource & { secretName?: string }
  downwardAPI?: { items?: DownwardItem[]; defaultMode?: number }
  projected?: {
    sources?: {
      configMap?: ObjectSource
      secret?: ObjectSource
      downwardAPI?: { items?: DownwardItem[] }
      serviceAccountToken?: object
    }[]
    defaultMode?: number
  }
  persistentVolumeClaim?: { claimName: string; readOnly?: boolean }
}

/** File content by relative path, with its mode. */
type Files = Map<string, { data: string; mode: number }>

const DEFAULT_MODE = 0o644

export class PodVolumes {
  private readonly paths = new Map<string, string>()
  private readonly written = new Map<string, Set<string>>()

  constructor(
    private pod: KubeObject,
    /** this pod's own directory on the node */
    readonly dir: string,
    private readonly get: ApiGet,
  ) {}

  private get volumes(): Volume[] {
    return ((this.pod.spec as { volumes?: Volume[] } | undefined)?.volumes ?? []) as Volume[]
  }

  /** Creates every volume (or brings its files up to date); throws VolumeError naming the volume that failed. */
  async setUp(
    pod: KubeObject = this.pod,
    ctx: { podIP?: string; hostIP?: string } = {},
  ): Promise<void> {
    this.pod = pod
    for (const v of this.volumes) {
      try {
        this.paths.set(v.name, await this.setUpOne(v, ctx))
      } catch (err) {
        throw new VolumeError(
          `MountVolume.SetUp failed for volume "${v.name}" : ${(err as Error).message}`,
        )
      }
    }
  }

  private async setUpOne(v: Volume, ctx: { podIP?: string; hostIP?: string }): Promise<string> {
    const own = join(this.dir, 'volumes', v.name)
    if (v.hostPath) return hostPath(v.hostPath.path, v.hostPath.type)
    if (v.persistentVolumeClaim) return this.claimPath(v.persistentVolumeClaim.claimName)
    if (v.emptyDir) {
      mkdirSync(own, { recursive: true })
      chmodSync(own, 0o777)
      return own
    }
    const files: Files = new Map()
    if (v.configMap)
      await this.objectFiles(
        'configmaps',
        v.configMap.name ?? '',
        v.configMap,
        v.configMap.defaultMode,
        files,
      )
    else if (v.secret)
      await this.objectFiles(
        'secrets',
        v.secret.secretName ?? '',
        v.secret,
        v.secret.defaultMode,
        files,
      )
    else if (v.downwardAPI)
      this.downwardFiles(v.downwardAPI.items ?? [], v.downwardAPI.defaultMode, ctx, files)
    else if (v.projected) {
      for (const s of v.projected.sources ?? []) {
        if (s.configMap)
          await this.objectFiles(
            'configmaps',
            s.configMap.name ?? '',
            s.configMap,
            v.projected.defaultMode,
            files,
          )
        else if (s.secret)
          await this.objectFiles(
            'secrets',
            s.secret.name ?? '',
            s.secret,
            v.projected.defaultMode,
            files,
          )
        else if (s.downwardAPI)
          this.downwardFiles(s.downwardAPI.items ?? [], v.projected.defaultMode, ctx, files)
        else if (s.serviceAccountToken)
          throw new Error('serviceAccountToken projections are not supported by this node')
      }
    } else
      throw new Error(
        'this node supports emptyDir, hostPath, configMap, secret, downwardAPI, projected and persistentVolumeClaim volumes only',
      )
    this.writeFiles(v.name, own, files)
    return own
  }

  private async objectFiles(
    resource: 'configmaps' | 'secrets',
    name: string,
    src: ObjectSource,
    defaultMode: number | undefined,
    files: Files,
  ): Promise<void> {
    const ns = this.pod.metadata.namespace ?? 'default'
    const obj = await this.get(`/api/v1/namespaces/${ns}/${resource}/${name}`)
    const kind = resource === 'configmaps' ? 'configmap' : 'secret'
    if (!obj) {
      if (src.optional) return
      throw new Error(`${kind} "${name}" not found`)
    }
    const data = resource === 'configmaps' ? configMapData(obj) : secretData(obj)
    const mode = src.defaultMode ?? defaultMode ?? DEFAULT_MODE
    if (!src.items?.length) {
      for (const [k, d] of Object.entries(data)) files.set(k, { data: d, mode })
      return
    }
    for (const item of src.items) {
      if (!(item.key in data)) {
        if (src.optional) continue
        throw new Error(
          `configmap references non-existent config key: ${item.key}`.replace('configmap', kind),
        )
      }
      files.set(safeRelative(item.path), { data: data[item.key]!, mode: item.mode ?? mode })
    }
  }

  private downwardFiles(
    items: DownwardItem[],
    defaultMode: number | undefined,
    ctx: { podIP?: string; hostIP?: string },
    files: Files,
  ): void {
    for (const item of items) {
      if (!item.fieldRef)
        throw new Error(`downwardAPI item "${item.path}": only fieldRef is supported by this node`)
      files.set(safeRelative(item.path), {
        data: fieldRefValue(this.pod, item.fieldRef.fieldPath, ctx),
        mode: item.mode ?? defaultMode ?? DEFAULT_MODE,
      })
    }
  }

  /** Writes changed files by rename (a reader never sees half a file) and removes the ones no longer projected. */
  private writeFiles(volume: string, dir: string, files: Files): void {
    mkdirSync(dir, { recursive: true })
    const before = this.written.get(volume) ?? new Set<string>()
    for (const [rel, f] of files) {
      const path = join(dir, rel)
      mkdirSync(dirname(path), { recursive: true })
      const same =
        existsSync(path) &&
        readFileSync(path, 'utf8') === f.data &&
        (statSync(path).mode & 0o777) === f.mode
      if (same) continue
      const tmp = join(dirname(path), `..${process.pid}.tmp`)
      writeFileSync(tmp, f.data, { mode: f.mode })
      chmodSync(tmp, f.mode)
      renameSync(tmp, path)
    }
    for (const rel of before) if (!files.has(rel)) rmSync(join(dir, rel), { force: true })
    this.written.set(volume, new Set(files.keys()))
  }

  private async claimPath(claimName: string): Promise<string> {
    const { path, type } = volumeHostPath(await boundVolume(this.pod, claimName, this.get))
    return hostPath(path, type)
  }

  /** The engine's bind mounts for one container's volumeMounts (creating subPath directories). */
  binds(spec: DockerContainerSpec): string[] {
    const out: string[] = []
    for (const m of spec.volumeMounts ?? []) {
      const base = this.paths.get(m.name)
      if (base === undefined)
        throw new VolumeError(`volume "${m.name}" of volumeMount ${m.mountPath} is not set up`)
      let source = base
      if (m.subPath) {
        source = join(base, safeRelative(m.subPath))
        if (!existsSync(source)) mkdirSync(source, { recursive: true })
      }
      const v = this.volumes.find((x) => x.name === m.name)
      const alwaysRO =
        !!(v?.configMap || v?.secret || v?.downwardAPI || v?.projected) ||
        !!v?.persistentVolumeClaim?.readOnly
      out.push(`${source}:${m.mountPath}${m.readOnly || alwaysRO ? ':ro' : ''}`)
    }
    return out
  }

  /** Removes the pod's own directory (emptyDirs and projected files); hostPaths stay. */
  tearDown(): void {
    rmSync(this.dir, { recursive: true, force: true })
  }
}

/** A path inside a volume: relative, without `..`. */
function safeRelative(path: string): string {
  const n = normalize(path)
  if (
    !path ||
    path.startsWith('/') ||
    n === '..' ||
    n.startsWith('../') ||
    n.split('/').includes('..')
  )
    throw new Error(`path "${path}" must be relative and may not contain '..'`)
  return n
}

/** hostPath with its type checked (or created) as the kubelet does. */
function hostPath(path: string, type = ''): string {
  const kind = () => {
    try {
      const s = statSync(path)
      return s.isDirectory()
        ? 'Directory'
        : s.isSocket()
          ? 'Socket'
          : s.isCharacterDevice()
            ? 'CharDevice'
            : s.isBlockDevice()
              ? 'BlockDevice'
              : 'File'
    } catch {
      return undefined
    }
  }
  if (type === 'DirectoryOrCreate' && !kind()) mkdirSync(path, { recursive: true, mode: 0o755 })
  if (type === 'FileOrCreate' && !kind()) {
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, '', { mode: 0o644 })
  }
  const want = type.replace(/OrCreate$/, '')
  if (want) {
    const got = kind()
    if (got === undefined) throw new Error(`hostPath type check failed: ${path} does not exist`)
    if (got !== want)
      throw new Error(`hostPath type check failed: ${path} is not a ${want.toLowerCase()}`)
  }
  return path
}
