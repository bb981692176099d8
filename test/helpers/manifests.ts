/** Manifests as kubectl users write them, for the API or serialised for `kubectl … -f -` (pods: `podManifest` in pods.ts). */

export type Manifest = Record<string, unknown>

export interface ContainerSpec {
  name: string
  image?: string
  env?: { name: string; value: string }[]
  [field: string]: unknown
}

export function namespace(name: string): Manifest {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }
}

export function configMap(
  name: string,
  opts: {
    namespace?: string
    labels?: Record<string, string>
    data?: Record<string, string>
    finalizers?: string[]
  } = {},
): Manifest {
  const metadata: Record<string, unknown> = { name }
  if (opts.namespace) metadata.namespace = opts.namespace
  if (opts.labels) metadata.labels = opts.labels
  if (opts.finalizers) metadata.finalizers = opts.finalizers
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata, data: opts.data ?? {} }
}

export function deployment(
  name: string,
  opts: {
    namespace?: string
    /** selector and template labels, and the Deployment's own (default `app: <name>`) */
    labels?: Record<string, string>
    /** more labels on the Deployment only */
    extraLabels?: Record<string, string>
    replicas?: number
    containers?: ContainerSpec[]
    templateLabels?: Record<string, string>
    spec?: Record<string, unknown>
  } = {},
): Manifest {
  const labels = opts.labels ?? { app: name }
  const metadata: Record<string, unknown> = { name, labels: { ...labels, ...opts.extraLabels } }
  if (opts.namespace) metadata.namespace = opts.namespace
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata,
    spec: {
      replicas: opts.replicas ?? 2,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels: opts.templateLabels ?? labels },
        spec: { containers: opts.containers ?? [{ name: 'nginx', image: 'nginx:1.27' }] },
      },
      ...opts.spec,
    },
  }
}

/** Several manifests in one stream, as `kubectl apply -f -` reads them. */
export function stream(...manifests: Manifest[]): string {
  return manifests.map((m) => JSON.stringify(m)).join('\n')
}
