import type { KubeObject } from '../../apimachinery/types'
import type { Cache, ControllerDefinition, ResourceRef } from '../runtime/types'
import { namespaces, nodes, persistentVolumeClaims, pods, sameResource } from '../resources'
import type { PodSecuritySettings } from '../../apis/pod-security/settings'
import { persistentVolumes, storageClasses } from '../resources'
import { pendingKeys, schedulingFingerprint } from './keys'
import { DEFAULT_SCHEDULER_NAME, isPendingFor, isTerminal, nodeNameOf, podKey } from './pods'
import { reconcilePod } from './reconcile'
import { byPriority } from './queue-order'
import { podLeaving } from '../shared/wakes'
import { podReads } from '../shared/pod-reads'
import { notOnHeartbeats } from '../shared/node-heartbeat'

const schedulerContainerReads = {
  name: true,
  resources: true,
  ports: true,
  command: true,
  restartPolicy: true,
}

/** Fields of a pod's spec that no filter, score or preemption step reads: its cache drops them. */
const specNotRead = [
  'restartPolicy',
  'terminationGracePeriodSeconds',
  'activeDeadlineSeconds',
  'dnsPolicy',
  'dnsConfig',
  'enableServiceLinks',
  'securityContext',
  'serviceAccountName',
  'serviceAccount',
  'automountServiceAccountToken',
  'imagePullSecrets',
  'hostname',
  'subdomain',
  'setHostnameAsFQDN',
  'shareProcessNamespace',
]

export interface SchedulerOptions {
  /** pods whose spec.schedulerName names this scheduler (an empty name means the default) */
  schedulerName?: string
  /** the cluster's Pod Security settings: a pod whose namespace enforces baseline or restricted is kept off process nodes */
  podSecurity?: PodSecuritySettings
}

/**
 * The scheduler: binds pending pods to nodes. Keys are `namespace/name` of pending pods.
 *
 * `keysFor` expects to be called after the cache reflects the change, as client-go's informers
 * notify handlers only once their store is updated: a deleted pod is recognised by its absence.
 * Each definition remembers, per node, the fingerprint of what its filters read, so that it only
 * retries pending pods when a node changes in a way that could make one of them fit. That memory
 * needs no keeping: a new instance relists, and its first pass visits every pending pod anyway.
 */
export function schedulerController(options: SchedulerOptions = {}): ControllerDefinition {
  const schedulerName = options.schedulerName ?? DEFAULT_SCHEDULER_NAME
  const seenNodes = new Map<string, string>()

  const nodeChanged = (node: KubeObject, cache: Cache): string[] => {
    const name = node.metadata.name ?? ''
    // The cached object, not the one passed in: keysFor is also called with the previous version
    // of a changed object, which must not count as yet another change.
    const current = cache.get(nodes, undefined, name)
    // A node that went away frees nothing a pending pod could use.
    if (!current) {
      seenNodes.delete(name)
      return []
    }
    const fingerprint = schedulingFingerprint(current)
    if (seenNodes.get(name) === fingerprint) return []
    seenNodes.set(name, fingerprint)
    return pendingKeys(cache, schedulerName)
  }

  const podChanged = (pod: KubeObject, cache: Cache): string[] => {
    if (isPendingFor(pod, schedulerName)) return [podKey(pod)]
    if (nodeNameOf(pod) === '') return []
    // A bound pod that finished or was deleted gave its node's capacity back.
    const stored = cache.get(pods, pod.metadata.namespace, pod.metadata.name ?? '')
    const gone = !stored || stored.metadata.uid !== pod.metadata.uid
    return gone || isTerminal(pod) ? pendingKeys(cache, schedulerName) : []
  }

  return {
    name: 'scheduler',
    watches: {
      // Namespaces: their Pod Security labels keep pods off process nodes (pod-security-fit.ts).
      kinds: [pods, nodes, persistentVolumeClaims, persistentVolumes, storageClasses, namespaces],
      // Of a pod, its spec but its containers' runtime detail: their requests (requests.ts), host
      // ports (filter.ts), commands (runtime-fit.ts) and sidecar restart policy, and of its volumes
      // the claims (podClaimNames, for volume-binding.ts); of its status, the
      // phase (isTerminal), conditions, nomination and start (preemption.ts, unschedulable.ts).
      reads: podReads(
        {
          spec: {
            '*': true,
            ...Object.fromEntries(specNotRead.map((f) => [f, false])),
            containers: schedulerContainerReads,
            initContainers: schedulerContainerReads,
            ephemeralContainers: false,
            volumes: { name: true, persistentVolumeClaim: true, ephemeral: true },
          },
          status: { phase: true, conditions: true, nominatedNodeName: true, startTime: true },
        },
        false,
      ),
      // As podChanged: a pod waiting for a node, or a bound one giving its node's capacity back.
      wakesOn: notOnHeartbeats(
        (resource, type, object) =>
          !sameResource(resource, pods) || nodeNameOf(object) === '' || podLeaving(type, object),
      ),
      keysFor(resource: ResourceRef, object: KubeObject, cache: Cache): string[] {
        if (sameResource(resource, pods)) return podChanged(object, cache)
        if (sameResource(resource, nodes)) return nodeChanged(object, cache)
        if (sameResource(resource, namespaces))
          return pendingKeys(cache, schedulerName).filter((k) =>
            k.startsWith(`${object.metadata.name}/`),
          )
        // A claim bound, provisioned or created, a volume or class changed: pods waiting on volumes retry.
        return pendingKeys(cache, schedulerName)
      },
      allKeys: (cache) => pendingKeys(cache, schedulerName),
      order: byPriority,
    },
    reconcile: (key, cache, now) =>
      reconcilePod(key, cache, now, schedulerName, options.podSecurity),
  }
}

export { reconcilePod } from './reconcile'
