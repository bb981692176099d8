import type { KubeObject } from '../apimachinery/types'
import { age } from './duration'

/** The value kinds a meta.k8s.io/v1 TableColumnDefinition may declare (OpenAPI type names). */
export type ColumnType = 'string' | 'integer' | 'number' | 'boolean' | 'date'

/** metav1.TableColumnDefinition as sent on the wire. */
export interface ColumnDefinition {
  name: string
  type: ColumnType
  /** `name` marks the object-name column, which kubectl prefixes with `kind/` in mixed output */
  format: string
  description: string
  /** 0 is always shown; higher values only with `-o wide` */
  priority: number
}

/** Turns one object into the cells of its row, in the order of `columns`, wide columns included. */
export interface Printer {
  columns: ColumnDefinition[]
  cells(obj: KubeObject, now: number): unknown[]
  /** the order of a list's rows, when upstream's printer sorts them (the store's order otherwise) */
  order?(objects: KubeObject[]): KubeObject[]
}

export function column(
  name: string,
  type: ColumnType,
  description: string,
  priority = 0,
  format = '',
): ColumnDefinition {
  return { name, type, format, description, priority }
}

export const NAME_DESCRIPTION =
  'Name of the object, unique within its namespace (or within the cluster for cluster-scoped kinds).'
export const AGE_DESCRIPTION =
  'Time since the server created the object (metadata.creationTimestamp).'

export const nameColumn = column('Name', 'string', NAME_DESCRIPTION, 0, 'name')
export const ageColumn = column('Age', 'string', AGE_DESCRIPTION)

/** The template columns every pod-owning workload shows under `-o wide`. */
export const containersColumn = column(
  'Containers',
  'string',
  'Names of each container in the template.',
  1,
)
export const imagesColumn = column(
  'Images',
  'string',
  'Images referenced by each container in the template.',
  1,
)
export function selectorColumn(description: string): ColumnDefinition {
  return column('Selector', 'string', description, 1)
}

/**
 * A pod-owning workload's columns: Name, its own, Age, then (under `-o wide`) the template's
 * containers and images and, when described, the selector.
 */
export function workloadColumns(
  own: ColumnDefinition[],
  selectorDescription?: string,
): ColumnDefinition[] {
  return [
    nameColumn,
    ...own,
    ageColumn,
    containersColumn,
    imagesColumn,
    ...(selectorDescription ? [selectorColumn(selectorDescription)] : []),
  ]
}

export function objectName(obj: KubeObject): string {
  return obj.metadata?.name ?? ''
}

export function objectAge(obj: KubeObject, now: number): string {
  return age(obj.metadata?.creationTimestamp, now)
}

/** Name and Age: what any kind without a printer of its own shows (CRDs, RBAC, and the rest). */
export const genericPrinter: Printer = {
  columns: [nameColumn, ageColumn],
  cells: (obj, now) => [objectName(obj), objectAge(obj, now)],
}
