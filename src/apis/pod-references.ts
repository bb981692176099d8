import type { KubeObject } from '../apimachinery/types'

/**
 * The objects a pod references, which the node it is bound to may read (the edges of
 * kube-apiserver's Node authorizer graph: pod → secret, configmap, persistentvolumeclaim). All
 * of them live in the pod's namespace.
 */
export type ReferencedResource = 'secrets' | 'configmaps' | 'persistentvolumeclaims'

export interface PodReference {
  resource: ReferencedResource
  name: string
}

type Obj = Record<string, unknown>

const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {})
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(obj) : [])
const str = (v: unknown): string => (typeof v === 'string' ? v : '')

/** Volume sources that name a secret in `secretRef.name` (as podutil.VisitPodSecretNames visits them). */
const secretRefVolumes = ['cephfs', 'cinder', 'flexVolume', 'iscsi', 'rbd', 'scaleIO', 'storageos']

/**
 * Every secret, configmap and claim the pod spec names: image pull secrets; env `valueFrom`
 * and `envFrom` of every container (init and ephemeral included); secret, configMap, projected,
 * persistentVolumeClaim and ephemeral volumes, and the secret references of the other volume
 * types. Deduplicated, in first-seen order.
 */
export function podReferences(pod: KubeObject): PodReference[] {
  const spec = obj(pod.spec)
  const seen = new Set<string>()
  const out: PodReference[] = []
  const add = (resource: ReferencedResource, name: string) => {
    if (!name || seen.has(`${resource}/${name}`)) return
    seen.add(`${resource}/${name}`)
    out.push({ resource, name })
  }
  for (const s of arr(spec.imagePullSecrets)) add('secrets', str(s.name))
  for (const c of [
    ...arr(spec.initContainers),
    ...arr(spec.containers),
    ...arr(spec.ephemeralContainers),
  ]) {
    for (const e of arr(c.envFrom)) {
      add('configmaps', str(obj(e.configMapRef).name))
      add('secrets', str(obj(e.secretRef).name))
    }
    for (const e of arr(c.env)) {
      const from = obj(e.valueFrom)
      add('configmaps', str(obj(from.configMapKeyRef).name))
      add('secrets', str(obj(from.secretKeyRef).name))
    }
  }
  for (const v of arr(spec.volumes)) {
    add('secrets', str(obj(v.secret).secretName))
    add('configmaps', str(obj(v.configMap).name))
    for (const source of arr(obj(v.projected).sources)) {
      add('secrets', str(obj(source.secret).name))
      add('configmaps', str(obj(source.configMap).name))
    }
    add('secrets', str(obj(v.azureFile).secretName))
    add('secrets', str(obj(obj(v.csi).nodePublishSecretRef).name))
    for (const kind of secretRefVolumes) add('secrets', str(obj(obj(v[kind]).secretRef).name))
    add('persistentvolumeclaims', str(obj(v.persistentVolumeClaim).claimName))
    // A generic ephemeral volume's claim is named after the pod and the volume.
    if (v.ephemeral && str(pod.metadata?.name) && str(v.name))
      add('persistentvolumeclaims', `${pod.metadata.name}-${str(v.name)}`)
  }
  return out
}
