import type { KubeObject } from '../../apimachinery/types'
import { jsonEqual } from '../../apimachinery/json-value'
import { namespaces } from '../resources'
import type { Cache, ControllerDefinition, Outcome, ResourceRef } from '../runtime/types'
import { isActiveNamespace, perNamespaceController } from './namespaces'

export const configMaps: ResourceRef = Object.freeze({
  group: '',
  version: 'v1',
  plural: 'configmaps',
})

/** The ConfigMap every namespace gets, and its one key. */
export const rootCaConfigMap = 'kube-root-ca.crt'
export const rootCaKey = 'ca.crt'
export const descriptionAnnotation = 'kubernetes.io/description'

/** Upstream's description, when the bundle holds the CA the API server's certificate chains to. */
export const caDescription =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.'

/** What the ConfigMap says when the API is served under a publicly trusted certificate: no private CA to publish. */
export const noCaDescription =
  'Empty: the API server presents a certificate issued by a publicly trusted CA, so clients verify it with their system trust store. There is no cluster CA to trust.'

/**
 * The root-ca-cert-publisher of kube-controller-manager: every active namespace holds the
 * `kube-root-ca.crt` ConfigMap with the CA bundle clients use to verify the API server (`rootCa`,
 * a PEM; empty when the API's certificate is publicly trusted). A missing one is created, a changed
 * one is put back (its `ca.crt` and description; other metadata is left alone).
 */
export function rootCaPublisher(rootCa: string): ControllerDefinition {
  return perNamespaceController(
    'root-ca-cert-publisher',
    configMaps,
    rootCaConfigMap,
    (namespace, cache) => publishRootCa(namespace, cache, rootCa),
  )
}

export function publishRootCa(namespace: string, cache: Cache, rootCa: string): Outcome {
  if (!isActiveNamespace(cache.get(namespaces, undefined, namespace))) return { actions: [] }
  const data = { [rootCaKey]: rootCa }
  const description = rootCa ? caDescription : noCaDescription
  const current = cache.get(configMaps, namespace, rootCaConfigMap)
  if (!current) {
    const object: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: rootCaConfigMap,
        namespace,
        annotations: { [descriptionAnnotation]: description },
      },
      data,
    }
    return { actions: [{ type: 'create', resource: configMaps, object }] }
  }
  if (
    jsonEqual(current.data ?? {}, data) &&
    current.metadata.annotations?.[descriptionAnnotation] === description
  )
    return { actions: [] }
  const object: KubeObject = {
    ...current,
    metadata: {
      ...current.metadata,
      annotations: { ...current.metadata.annotations, [descriptionAnnotation]: description },
    },
    data,
  }
  return { actions: [{ type: 'update', resource: configMaps, object }] }
}
