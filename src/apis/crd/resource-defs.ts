import type { KubeObject } from '../../apimachinery/types'
import type { ResourceDef, Subresource } from '../resource-def'
import type { JSONSchemaProps } from './schema'
import { crdSpecOf, isEstablished, type CrdVersion } from './crd-object'

/**
 * The resources a CustomResourceDefinition serves: one per served version, all kept by the same
 * store (`<group>/<plural>`). Only an Established CRD serves anything.
 */
export function resourceDefsOf(crd: KubeObject): ResourceDef[] {
  if (!isEstablished(crd)) return []
  const versions = (crdSpecOf(crd).versions ?? []).filter((v) => v.served && v.name)
  return sortByVersionPriority(versions).flatMap((v) => versionDef(crd, v) ?? [])
}

/** The resource of the CRD's storage version, whatever its conditions: what its store is addressed by. */
export function storageDefOf(crd: KubeObject): ResourceDef | undefined {
  const v = crdSpecOf(crd).versions?.find((x) => x.storage && x.name)
  return v && versionDef(crd, v)
}

function versionDef(crd: KubeObject, v: CrdVersion): ResourceDef | undefined {
  const spec = crdSpecOf(crd)
  const names = spec.names ?? {}
  if (!spec.group || !names.plural || !names.kind || !v.name) return undefined
  return {
    group: spec.group,
    version: v.name,
    kind: names.kind,
    plural: names.plural,
    singular: names.singular || names.kind.toLowerCase(),
    namespaced: spec.scope !== 'Cluster',
    ...(names.shortNames?.length ? { shortNames: [...names.shortNames] } : {}),
    ...(names.categories?.length ? { categories: [...names.categories] } : {}),
    subresources: subresourcesOf(v),
    generation: true,
    custom: {
      crd: crd.metadata.name ?? '',
      schema: v.schema?.openAPIV3Schema as JSONSchemaProps | undefined,
      columns: (v.additionalPrinterColumns ?? []).map((c) => ({
        ...c,
        name: c.name ?? '',
        type: c.type ?? '',
        jsonPath: c.jsonPath ?? '',
      })),
      ...(v.subresources?.scale ? { scale: v.subresources.scale } : {}),
      terminating: !!crd.metadata.deletionTimestamp,
      multiVersion: (spec.versions ?? []).length > 1,
    },
  }
}

function subresourcesOf(v: CrdVersion): Subresource[] {
  const out: Subresource[] = []
  if (v.subresources?.status) out.push('status')
  if (v.subresources?.scale) out.push('scale')
  return out
}

/**
 * Kubernetes version priority: GA before beta before alpha, higher numbers first within each,
 * and versions that do not look like Kubernetes versions last, alphabetically.
 */
export function compareVersions(a: string, b: string): number {
  const rank = (v: string) => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v)
    if (!m) return [3, 0, 0]
    const stage = m[2] === undefined ? 0 : m[2] === 'beta' ? 1 : 2
    return [stage, -Number(m[1]), -Number(m[3] ?? 0)]
  }
  const ra = rank(a)
  const rb = rank(b)
  for (let i = 0; i < 3; i++) if (ra[i] !== rb[i]) return ra[i]! - rb[i]!
  return a.localeCompare(b)
}

function sortByVersionPriority(versions: CrdVersion[]): CrdVersion[] {
  return [...versions].sort((a, b) => compareVersions(a.name!, b.name!))
}
