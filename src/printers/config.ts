/** Tables for small configuration kinds: ConfigMap, Secret, ServiceAccount, Namespace, Lease. */
import type { KubeObject } from '../apimachinery/types'
import { ageColumn, column, nameColumn, objectAge, objectName, type Printer } from './columns'
import { list, record } from './format'

export const configMapPrinter: Printer = {
  columns: [
    nameColumn,
    column('Data', 'string', 'Number of keys in data and binaryData.'),
    ageColumn,
  ],
  cells(obj, now) {
    const keys = Object.keys(record(obj.data as Record<string, unknown>)).length
    const binaryKeys = Object.keys(record(obj.binaryData as Record<string, unknown>)).length
    return [objectName(obj), keys + binaryKeys, objectAge(obj, now)]
  },
}

/** Keys of data, counting stringData keys too in case an object still carries write-only input. */
function secretKeyCount(obj: KubeObject): number {
  const keys = new Set(Object.keys(record(obj.data as Record<string, unknown>)))
  for (const key of Object.keys(record(obj.stringData as Record<string, unknown>))) keys.add(key)
  return keys.size
}

export const secretPrinter: Printer = {
  columns: [
    nameColumn,
    column('Type', 'string', 'Used to facilitate programmatic handling of secret data.'),
    column('Data', 'string', 'Number of keys in data.'),
    ageColumn,
  ],
  cells(obj, now) {
    // type defaults to Opaque in the API.
    const type = typeof obj.type === 'string' && obj.type ? obj.type : 'Opaque'
    return [objectName(obj), type, secretKeyCount(obj), objectAge(obj, now)]
  },
}

export const serviceAccountPrinter: Printer = {
  columns: [
    nameColumn,
    column('Secrets', 'string', 'Number of secrets listed for this service account.'),
    ageColumn,
  ],
  cells(obj, now) {
    return [objectName(obj), list(obj.secrets as unknown[]).length, objectAge(obj, now)]
  },
}

interface Namespace extends KubeObject {
  status?: { phase?: string }
}

export const namespacePrinter: Printer = {
  columns: [nameColumn, column('Status', 'string', 'The status of the namespace'), ageColumn],
  cells(obj, now) {
    const ns = obj as Namespace
    // The server sets phase Active on create and Terminating on delete; fall back the same way.
    const phase = ns.status?.phase || (ns.metadata?.deletionTimestamp ? 'Terminating' : 'Active')
    return [objectName(ns), phase, objectAge(ns, now)]
  },
}

interface Lease extends KubeObject {
  spec?: { holderIdentity?: string | null }
}

export const leasePrinter: Printer = {
  columns: [
    nameColumn,
    column('Holder', 'string', 'The identity of the current holder of the lease.'),
    ageColumn,
  ],
  cells(obj, now) {
    const lease = obj as Lease
    return [objectName(lease), lease.spec?.holderIdentity ?? '', objectAge(lease, now)]
  },
}

/** CustomResourceDefinitions print their creation time itself, not an age. */
export const crdPrinter: Printer = {
  columns: [nameColumn, column('Created At', 'date', 'Time the object was created.')],
  cells: (obj) => [objectName(obj), obj.metadata?.creationTimestamp ?? ''],
}
