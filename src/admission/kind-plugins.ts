/**
 * The admission plugins of one kind's creates that read other objects, which a new object of the
 * kind passes before the plugins every create passes (./create.ts): Priority and RuntimeClass for
 * pods, DefaultStorageClass for claims, DefaultIngressClass for Ingresses. Found by the kind's
 * group and resource.
 */
import type { AdmissionBindings } from './bindings'
import type { KubeObject } from '../apimachinery/types'
import { qualifiedResource } from '../apimachinery/status'
import type { ResourceDef } from '../apis/resource-def'
import { admitPodCreate } from './pod-admission'
import { defaultStorageClass } from './storage-class'
import { defaultIngressClass } from './ingress-class'

export interface KindPlugins {
  /** may change the object, or throw an ApiError with the refusal */
  admit(env: AdmissionBindings, obj: KubeObject): Promise<void>
  /** a server-side apply that creates the object passes them too, on the configuration applied */
  onApplyCreate?: boolean
}

const plugins = new Map<string, KindPlugins>([
  [qualifiedResource('', 'pods'), { admit: admitPodCreate, onApplyCreate: true }],
  [qualifiedResource('', 'persistentvolumeclaims'), { admit: defaultStorageClass }],
  [qualifiedResource('networking.k8s.io', 'ingresses'), { admit: defaultIngressClass }],
])

export function kindPluginsOf(
  def: Pick<ResourceDef, 'group' | 'plural' | 'custom'>,
): KindPlugins | undefined {
  return def.custom ? undefined : plugins.get(qualifiedResource(def.group, def.plural))
}
