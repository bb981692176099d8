/**
 * One pass of the persistent volume controller over a claim or a volume, as
 * kube-controller-manager's PV controller (syncClaim / syncVolume) in minimal form: binding,
 * phases, reclaiming, and provisioning for the local-path class.
 */
import type { KubeObject } from '../../apimachinery/types'
import { nodes, persistentVolumeClaims } from '../resources'
import type { Action, Cache, Outcome } from '../runtime/types'
import { claimClass, claimRefMatches, findMatchingVolume, mismatch } from './match'
import { localPathRoot, localPathVolume, provisionedName } from './provision'
import {
  BIND_COMPLETED_ANNOTATION,
  BOUND_BY_CONTROLLER_ANNOTATION,
  LOCAL_PATH_PROVISIONER,
  PROVISIONED_BY_ANNOTATION,
  SELECTED_NODE_ANNOTATION,
  STORAGE_PROVISIONER_ANNOTATION,
} from '../../apis/storage/annotations'
import { persistentVolumes, storageClasses } from '../resources'
import { formatTime } from '../../apimachinery/meta-time'
import { asRecord as rec, type Json } from '../../apimachinery/json-value'
import { event } from '../shared/events'

export const claimKey = (namespace: string, name: string) => `claim:${namespace}/${name}`
export const volumeKey = (name: string) => `volume:${name}`

const phaseOf = (o: KubeObject) => String(rec(o.status).phase ?? '')

function volumePhase(
  pv: KubeObject,
  phase: string,
  now: number,
  reason?: string,
  message?: string,
): Action[] {
  if (phaseOf(pv) === phase && (rec(pv.status).message ?? undefined) === message) return []
  const status: Json = {
    phase,
    lastPhaseTransitionTime: formatTime(now),
    reason: reason ?? null,
    message: message ?? null,
  }
  return [
    {
      type: 'patch',
      resource: persistentVolumes,
      name: pv.metadata.name ?? '',
      patch: { status },
      subresource: 'status',
    },
  ]
}

function claimStatus(pvc: KubeObject, pv: KubeObject | undefined, phase: string): Action[] {
  const status = rec(pvc.status)
  const want: Json = pv
    ? {
        phase,
        accessModes: rec(pv.spec).accessModes ?? null,
        capacity: rec(pv.spec).capacity ?? null,
      }
    : { phase }
  const same = Object.entries(want).every(
    ([k, v]) => JSON.stringify(status[k] ?? null) === JSON.stringify(v),
  )
  if (same) return []
  return [
    {
      type: 'patch',
      resource: persistentVolumeClaims,
      namespace: pvc.metadata.namespace,
      name: pvc.metadata.name ?? '',
      patch: { status: want },
      subresource: 'status',
    },
  ]
}

/** bind(): the volume's claimRef, its phase, then the claim's volumeName and status, each step skipped when done. */
function bind(pvc: KubeObject, pv: KubeObject, now: number): Action[] {
  const actions: Action[] = []
  const name = pv.metadata.name ?? ''
  const ref = rec(rec(pv.spec).claimRef)
  if (ref.uid !== pvc.metadata.uid) {
    const claimRef = {
      kind: 'PersistentVolumeClaim',
      apiVersion: 'v1',
      namespace: pvc.metadata.namespace,
      name: pvc.metadata.name,
      uid: pvc.metadata.uid,
      resourceVersion: pvc.metadata.resourceVersion,
    }
    const annotations = ref.name === undefined ? { [BOUND_BY_CONTROLLER_ANNOTATION]: 'yes' } : {}
    actions.push({
      type: 'patch',
      resource: persistentVolumes,
      name,
      patch: { metadata: { annotations }, spec: { claimRef } },
    })
  }
  actions.push(...volumePhase(pv, 'Bound', now))
  const spec = rec(pvc.spec)
  if (spec.volumeName !== name || pvc.metadata.annotations?.[BIND_COMPLETED_ANNOTATION] !== 'yes') {
    const annotations: Record<string, string> = { [BIND_COMPLETED_ANNOTATION]: 'yes' }
    if (!spec.volumeName) annotations[BOUND_BY_CONTROLLER_ANNOTATION] = 'yes'
    actions.push({
      type: 'patch',
      resource: persistentVolumeClaims,
      namespace: pvc.metadata.namespace,
      name: pvc.metadata.name ?? '',
      patch: { metadata: { annotations }, spec: { volumeName: name } },
    })
  }
  actions.push(...claimStatus(pvc, pv, 'Bound'))
  return actions
}

/** syncClaim */
export function reconcileClaim(pvc: KubeObject, cache: Cache, now: number): Action[] {
  if (pvc.metadata.deletionTimestamp) return []
  const volumeName = String(rec(pvc.spec).volumeName ?? '')
  const volumes = cache.list(persistentVolumes)
  if (volumeName) {
    const pv = cache.get(persistentVolumes, undefined, volumeName)
    if (!pv) {
      if (phaseOf(pvc) !== 'Bound') return claimStatus(pvc, undefined, 'Pending')
      return [
        ...claimStatus(pvc, undefined, 'Lost'),
        event(
          pvc,
          'Warning',
          'ClaimLost',
          'Bound claim has lost its PersistentVolume. Data on the volume is lost!',
        ),
      ]
    }
    const ref = rec(rec(pv.spec).claimRef)
    if (ref.name === undefined || claimRefMatches(pv, pvc)) {
      const why = ref.name === undefined ? mismatch(pv, pvc) : undefined
      if (why)
        return [
          ...claimStatus(pvc, undefined, 'Pending'),
          event(
            pvc,
            'Warning',
            'FailedBinding',
            `Cannot bind to requested volume "${volumeName}": ${why}`,
          ),
        ]
      return bind(pvc, pv, now)
    }
    return [
      ...claimStatus(pvc, undefined, 'Pending'),
      event(
        pvc,
        'Warning',
        'FailedBinding',
        `volume "${volumeName}" already bound to a different claim.`,
      ),
    ]
  }

  const className = claimClass(pvc)
  const cls = className ? cache.get(storageClasses, undefined, className) : undefined
  const delayed = cls?.volumeBindingMode === 'WaitForFirstConsumer'
  const selectedNode = pvc.metadata.annotations?.[SELECTED_NODE_ANNOTATION]
  const node = selectedNode ? cache.get(nodes, undefined, selectedNode) : undefined
  if (delayed && !selectedNode) {
    return [
      ...claimStatus(pvc, undefined, 'Pending'),
      event(
        pvc,
        'Normal',
        'WaitForFirstConsumer',
        'waiting for first consumer to be created before binding',
      ),
    ]
  }
  const pv = findMatchingVolume(pvc, volumes, delayed ? node : undefined)
  if (pv && !(delayed && !node)) return bind(pvc, pv, now)
  const pending = claimStatus(pvc, undefined, 'Pending')
  if (!className)
    return [
      ...pending,
      event(
        pvc,
        'Normal',
        'FailedBinding',
        'no persistent volumes available for this claim and no storage class is set',
      ),
    ]
  if (!cls)
    return [
      ...pending,
      event(
        pvc,
        'Warning',
        'ProvisioningFailed',
        `storageclass.storage.k8s.io "${className}" not found`,
      ),
    ]
  const provisioner = String(cls.provisioner ?? '')
  if (provisioner === 'kubernetes.io/no-provisioner')
    return [
      ...pending,
      event(
        pvc,
        'Normal',
        'FailedBinding',
        'no persistent volumes available for this claim and no storage class is set',
      ),
    ]
  if (provisioner !== LOCAL_PATH_PROVISIONER) {
    return [
      ...pending,
      event(
        pvc,
        'Normal',
        'ExternalProvisioning',
        `Waiting for a volume to be created either by the external provisioner '${provisioner}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.`,
      ),
    ]
  }
  if (!delayed)
    return [
      ...pending,
      event(
        pvc,
        'Warning',
        'ProvisioningFailed',
        `the ${LOCAL_PATH_PROVISIONER} provisioner needs volumeBindingMode WaitForFirstConsumer: a directory can only be made once a node is chosen`,
      ),
    ]
  const root = localPathRoot(node)
  if (!node || !root)
    return [
      ...pending,
      event(
        pvc,
        'Warning',
        'ProvisioningFailed',
        `node "${selectedNode}" does not advertise a local-path directory (is its agent running?)`,
      ),
    ]
  const annotated = pvc.metadata.annotations?.[STORAGE_PROVISIONER_ANNOTATION] === provisioner
  const existing = cache.get(persistentVolumes, undefined, provisionedName(pvc))
  if (existing) return pending
  return [
    ...pending,
    ...(annotated
      ? []
      : [
          {
            type: 'patch',
            resource: persistentVolumeClaims,
            namespace: pvc.metadata.namespace,
            name: pvc.metadata.name ?? '',
            patch: { metadata: { annotations: { [STORAGE_PROVISIONER_ANNOTATION]: provisioner } } },
          } as Action,
        ]),
    { type: 'create', resource: persistentVolumes, object: localPathVolume(pvc, cls, node, root) },
    event(
      pvc,
      'Normal',
      'ProvisioningSucceeded',
      `Successfully provisioned volume ${provisionedName(pvc)}`,
    ),
  ]
}

/** syncVolume */
export function reconcileVolume(pv: KubeObject, cache: Cache, now: number): Action[] {
  const ref = rec(rec(pv.spec).claimRef)
  if (pv.metadata.deletionTimestamp) {
    // Being deleted (its finalizers wait for the phase): Released once its claim is gone.
    const claim =
      ref.name === undefined
        ? undefined
        : cache.get(persistentVolumeClaims, String(ref.namespace ?? ''), String(ref.name))
    const claimed = !!claim && claim.metadata.uid === ref.uid
    return phaseOf(pv) === 'Bound' && !claimed ? volumePhase(pv, 'Released', now) : []
  }
  if (ref.name === undefined) return volumePhase(pv, 'Available', now)
  const claim = cache.get(persistentVolumeClaims, String(ref.namespace ?? ''), String(ref.name))
  // Pre-bound by the user to a claim that does not exist yet: still available to it.
  if (!ref.uid) return volumePhase(pv, 'Available', now)
  if (claim && claim.metadata.uid === ref.uid) {
    const volumeName = rec(claim.spec).volumeName
    if (volumeName === pv.metadata.name) return volumePhase(pv, 'Bound', now)
    if (!volumeName) return [] // the claim's pass finishes the binding
    // The claim went to another volume: a volume the controller bound is freed again.
    if (pv.metadata.annotations?.[BOUND_BY_CONTROLLER_ANNOTATION] === 'yes') {
      return [
        {
          type: 'patch',
          resource: persistentVolumes,
          name: pv.metadata.name ?? '',
          patch: { spec: { claimRef: null } },
        },
        ...volumePhase(pv, 'Available', now),
      ]
    }
    return []
  }
  // The claim is gone: reclaim the volume by its policy.
  const policy = String(rec(pv.spec).persistentVolumeReclaimPolicy ?? 'Retain')
  if (policy === 'Delete') {
    if (pv.metadata.annotations?.[PROVISIONED_BY_ANNOTATION] === LOCAL_PATH_PROVISIONER) {
      return [
        ...volumePhase(pv, 'Released', now),
        {
          type: 'delete',
          resource: persistentVolumes,
          name: pv.metadata.name ?? '',
          preconditions: { uid: pv.metadata.uid },
        },
      ]
    }
    const message = `error getting deleter volume plugin for volume "${pv.metadata.name}": no deletable volume plugin matched`
    return phaseOf(pv) === 'Failed'
      ? []
      : [
          ...volumePhase(pv, 'Failed', now, 'VolumeFailedDelete', message),
          event(pv, 'Warning', 'VolumeFailedDelete', message),
        ]
  }
  if (policy === 'Recycle') {
    const message = 'No recycler plugin found for the volume!'
    return phaseOf(pv) === 'Failed'
      ? []
      : [
          ...volumePhase(pv, 'Failed', now, 'VolumeFailedRecycle', message),
          event(pv, 'Warning', 'VolumeFailedRecycle', message),
        ]
  }
  return volumePhase(pv, 'Released', now)
}

export function reconcileStorage(key: string, cache: Cache, now: number): Outcome {
  if (key.startsWith('claim:')) {
    const [namespace, name] = key.slice('claim:'.length).split('/') as [string, string]
    const pvc = cache.get(persistentVolumeClaims, namespace, name)
    return { actions: pvc ? reconcileClaim(pvc, cache, now) : [] }
  }
  if (key.startsWith('volume:')) {
    const pv = cache.get(persistentVolumes, undefined, key.slice('volume:'.length))
    return { actions: pv ? reconcileVolume(pv, cache, now) : [] }
  }
  return { actions: [] }
}
