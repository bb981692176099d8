/**
 * The admission plugins a new pod passes that read other objects: Priority (priorityClassName →
 * spec.priority and spec.preemptionPolicy) then RuntimeClass (runtimeClassName → overhead, node
 * selector, tolerations), in kube-apiserver's plugin order. Every pod create goes through here:
 * the API's and the controllers'.
 */
import type { AdmissionBindings } from './bindings'
import type { KubeObject } from '../apimachinery/types'
import { ApiError, failure } from '../apimachinery/status'
import { admitPodPriority } from '../apis/priority-class'
import { admitPodRuntimeClass } from '../apis/runtime-class'
import { classNamed, classSnapshot, priorityClassesDef, runtimeClassesDef } from './class-snapshot'

/** admission.NewForbidden: `<resource> "<name>" is forbidden: <why>` (403). */
export function admissionForbidden(
  group: string,
  resource: string,
  name: string,
  why: string,
): ApiError {
  const qualified = group ? `${resource}.${group}` : resource
  return new ApiError(
    failure(403, 'Forbidden', `${qualified} "${name}" is forbidden: ${why}`, {
      name,
      group,
      kind: resource,
    }),
  )
}

/** Runs both plugins on a pod about to be created; throws the 403 of the first that refuses it. */
export async function admitPodCreate(env: AdmissionBindings, pod: KubeObject): Promise<void> {
  const name = pod.metadata?.name ?? ''
  const priorityDef = priorityClassesDef()
  const classes = await classSnapshot(env, priorityDef)
  const spec = (pod.spec ?? {}) as { priorityClassName?: unknown; runtimeClassName?: unknown }
  const wanted =
    typeof spec.priorityClassName === 'string' && spec.priorityClassName
      ? spec.priorityClassName
      : undefined
  const named = wanted ? await classNamed(env, priorityDef, wanted, classes) : undefined
  const priority = admitPodPriority(pod, (n) => (n === wanted ? named : undefined), classes)
  if (!priority.ok) throw admissionForbidden('', 'pods', name, priority.reason)

  const runtimeName =
    typeof spec.runtimeClassName === 'string' && spec.runtimeClassName
      ? spec.runtimeClassName
      : undefined
  const runtimeDef = runtimeClassesDef()
  const rc = runtimeName
    ? await classNamed(env, runtimeDef, runtimeName, await classSnapshot(env, runtimeDef))
    : undefined
  const runtime = admitPodRuntimeClass(pod, rc)
  if (!runtime.ok) throw admissionForbidden('', 'pods', name, runtime.reason)
}
