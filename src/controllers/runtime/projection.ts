import type { KubeObject } from '../../apimachinery/types'
import type { ResourceRef } from './types'
import { pickFields, type Fields } from './fields'

export const lastAppliedAnnotation = 'kubectl.kubernetes.io/last-applied-configuration'

/**
 * Kinds some controller writes back whole (a full update from its cache): their caches keep the
 * last-applied annotation, which an update without it would erase. Every other write a controller
 * makes is a create, patch, status update, bind or delete, which never needs it. managedFields go
 * everywhere: the store keeps the stored ones when an update carries none, as kube-apiserver does.
 */
const writtenWhole = new Set(
  [
    { group: 'rbac.authorization.k8s.io', plural: 'clusterroles' },
    { group: 'apps', plural: 'controllerrevisions' },
    { group: '', plural: 'nodes' },
    { group: '', plural: 'namespaces' },
    { group: 'discovery.k8s.io', plural: 'endpointslices' },
    { group: 'apps', plural: 'replicasets' },
    { group: '', plural: 'endpoints' },
    { group: '', plural: 'configmaps' },
    { group: '', plural: 'services' },
  ].map((r) => `${r.group}/${r.plural}`),
)

/**
 * What a controller's cache keeps of an object: everything but the bookkeeping no controller reads
 * (`metadata.managedFields`, and the last-applied annotation where the cache is never written back
 * whole). On a pod written by server-side apply and the agent, managedFields are the largest part.
 * With `reads` (the fields the controller declares it reads of this kind) only those are kept, beside
 * apiVersion, kind and metadata, which every controller reads.
 */
export function projectionFor(r: ResourceRef, reads?: Fields): (o: KubeObject) => KubeObject {
  const base = withoutBookkeeping(r)
  if (!reads) return base
  const tree: Fields = { ...reads, apiVersion: true, kind: true, metadata: true }
  return (o) => pickFields(base(o), tree) as KubeObject
}

function withoutBookkeeping(r: ResourceRef): (o: KubeObject) => KubeObject {
  const dropLastApplied = !writtenWhole.has(`${r.group}/${r.plural}`)
  return (o) => {
    const annotations = o.metadata.annotations
    const lastApplied =
      dropLastApplied &&
      annotations !== undefined &&
      annotations[lastAppliedAnnotation] !== undefined
    if (o.metadata.managedFields === undefined && !lastApplied) return o
    const { managedFields: _dropped, ...metadata } = o.metadata
    if (lastApplied) {
      const { [lastAppliedAnnotation]: _applied, ...rest } = annotations!
      if (Object.keys(rest).length) metadata.annotations = rest
      else delete metadata.annotations
    }
    return { ...o, metadata }
  }
}
