import type { KubeObject } from '../../src/apimachinery/types'
import { newControllerRef } from '../../src/apimachinery/owner-refs'
import type { Json } from '../../src/apimachinery/json-value'
import { formatTime } from '../../src/apimachinery/meta-time'
import type { Toleration } from '../../src/controllers/node-lifecycle/taints'
import { stamp, T0 } from './objects'

/**
 * Pods in the two forms the tests use: `newPod`, as a store holds one (uid, resourceVersion and
 * status filled in), for code that reads stored pods; `podManifest`, as a client sends one, for
 * requests to the API.
 */

export interface PodFixture {
  namespace?: string
  /** default `uid-<name>` */
  uid?: string
  /** default: the owner's template labels, else app=web */
  labels?: Record<string, string>
  annotations?: Record<string, string>
  /** the controlling owner: a ReplicaSet object, or the uid of one named `rs-<uid>` */
  owner?: KubeObject | string
  phase?: string
  nodeName?: string
  /** Ready=True since this time (epoch ms), or Ready=False */
  readySince?: number
  notReady?: boolean
  restarts?: number
  /** the containers (default one, `app` running `nginx:1`) */
  containers?: object[]
  /** requests and limits of the single default container */
  requests?: Record<string, string>
  limits?: Record<string, string>
  tolerations?: Toleration[]
  schedulerName?: string
  /** merged over the generated spec */
  spec?: Json
  conditions?: Json[]
  /** the whole status, in place of the generated one */
  status?: Json
  creationTimestamp?: number | string
  deletionTimestamp?: string
  /** merged over the generated metadata */
  metadata?: Partial<KubeObject['metadata']>
}

function templateLabelsOf(
  owner: KubeObject | string | undefined,
): Record<string, string> | undefined {
  if (typeof owner !== 'object') return undefined
  const labels = (
    (owner.spec as Json | undefined)?.template as
      | { metadata?: { labels?: Record<string, string> } }
      | undefined
  )?.metadata?.labels
  return labels ? { ...labels } : undefined
}

/** A pod as stored: bound and Running once it has a node (or is ready), else Pending; with an owner, its template labels and controller reference. */
export function newPod(name: string, f: PodFixture = {}): KubeObject {
  const metadata: KubeObject['metadata'] = {
    name,
    namespace: f.namespace ?? 'default',
    uid: f.uid ?? `uid-${name}`,
    resourceVersion: '1',
    creationTimestamp: stamp(f.creationTimestamp),
    labels: f.labels ?? templateLabelsOf(f.owner) ?? { app: 'web' },
  }
  if (f.annotations) metadata.annotations = f.annotations
  if (typeof f.owner === 'string')
    metadata.ownerReferences = [
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        name: `rs-${f.owner}`,
        uid: f.owner,
        controller: true,
      },
    ]
  else if (f.owner) metadata.ownerReferences = [newControllerRef(f.owner, 'apps/v1', 'ReplicaSet')]
  if (f.deletionTimestamp) metadata.deletionTimestamp = f.deletionTimestamp
  const container: Json = { name: 'app', image: 'nginx:1' }
  if (f.requests || f.limits)
    container.resources = {
      ...(f.requests ? { requests: f.requests } : {}),
      ...(f.limits ? { limits: f.limits } : {}),
    }
  const spec: Json = { containers: f.containers ?? [container], ...f.spec }
  if (f.schedulerName) spec.schedulerName = f.schedulerName
  const nodeName =
    f.nodeName ?? (f.readySince !== undefined || f.phase === 'Running' ? 'node-1' : undefined)
  if (nodeName) spec.nodeName = nodeName
  if (f.tolerations) spec.tolerations = f.tolerations
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { ...metadata, ...f.metadata },
    spec,
    status: f.status ?? generatedStatus(f, nodeName),
  }
}

function generatedStatus(f: PodFixture, nodeName: string | undefined): Json {
  const status: Json = { phase: f.phase ?? (nodeName ? 'Running' : 'Pending') }
  const conditions: Json[] = [...(f.conditions ?? [])]
  if (f.readySince !== undefined)
    conditions.push({ type: 'Ready', status: 'True', lastTransitionTime: formatTime(f.readySince) })
  else if (f.notReady)
    conditions.push({ type: 'Ready', status: 'False', lastTransitionTime: formatTime(T0 - 60_000) })
  if (conditions.length) status.conditions = conditions
  if (f.restarts !== undefined)
    status.containerStatuses = [
      { name: 'app', restartCount: f.restarts, ready: f.readySince !== undefined },
    ]
  return status
}

export interface PodManifestFixture {
  namespace?: string
  labels?: Record<string, string>
  annotations?: Record<string, string>
  nodeName?: string
  /** the containers (default one, `main` running `image`) */
  containers?: object[]
  /** the default container's image (busybox) */
  image?: string
  /** the default container's requests and limits */
  requests?: Record<string, string>
  limits?: Record<string, string>
  /** merged over the generated spec */
  spec?: Json
  /** merged over the generated metadata */
  metadata?: Partial<KubeObject['metadata']>
  /** a status, for code that reads one (a client never sends it) */
  status?: Json
}

/** A pod as a client writes it: apiVersion, kind, name and containers, and only what the fixture adds. */
export function podManifest(name: string, f: PodManifestFixture = {}): KubeObject {
  const metadata: KubeObject['metadata'] = { name }
  if (f.namespace) metadata.namespace = f.namespace
  if (f.labels) metadata.labels = f.labels
  if (f.annotations) metadata.annotations = f.annotations
  const spec: Json = {}
  if (f.nodeName) spec.nodeName = f.nodeName
  const container: Json = { name: 'main', image: f.image ?? 'busybox' }
  if (f.requests || f.limits)
    container.resources = {
      ...(f.requests ? { requests: f.requests } : {}),
      ...(f.limits ? { limits: f.limits } : {}),
    }
  spec.containers = f.containers ?? [container]
  const pod: KubeObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { ...metadata, ...f.metadata },
    spec: { ...spec, ...f.spec },
  }
  if (f.status) pod.status = f.status
  return pod
}
