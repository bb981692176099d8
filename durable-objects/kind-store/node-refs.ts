import type { KubeObject } from '../../src/apimachinery/types'
import { podReferences } from '../../src/apis/pod-references'
import { readMeta, writeMeta } from './meta'

const ddl = [
  `CREATE TABLE IF NOT EXISTS node_refs (
     node TEXT NOT NULL,
     resource TEXT NOT NULL,
     namespace TEXT NOT NULL,
     name TEXT NOT NULL,
     pod TEXT NOT NULL,
     PRIMARY KEY (node, resource, namespace, name, pod)) WITHOUT ROWID`,
  `CREATE INDEX IF NOT EXISTS node_refs_pod ON node_refs (pod)`,
]

/**
 * The pods store's index of what each node may read: one row per (node, resource, namespace,
 * name) a pod bound to that node references, written in the same transaction as the pod, so
 * "may node N read secret ns/x?" is one indexed lookup and is never behind the pods it follows.
 * Built from the current pods the first time a store that predates it is used.
 */
export class NodeRefs {
  private ready = false

  constructor(private readonly sql: SqlStorage) {}

  /** Replaces the rows of the pod stored under `key` with those of `pod` (none when deleted or unbound). */
  record(key: string, pod: KubeObject | undefined): void {
    this.ensure()
    this.write(key, pod)
  }

  /** Whether a pod bound to `node` references `resource` `namespace/name`. */
  refers(node: string, resource: string, namespace: string, name: string): boolean {
    this.ensure()
    const rows = this.sql
      .exec(
        'SELECT 1 FROM node_refs WHERE node = ? AND resource = ? AND namespace = ? AND name = ? LIMIT 1',
        node,
        resource,
        namespace,
        name,
      )
      .toArray()
    return rows.length > 0
  }

  private write(key: string, pod: KubeObject | undefined): void {
    this.sql.exec('DELETE FROM node_refs WHERE pod = ?', key)
    const node = (pod?.spec as { nodeName?: unknown } | undefined)?.nodeName
    if (!pod || typeof node !== 'string' || !node) return
    const namespace = pod.metadata.namespace ?? ''
    for (const ref of podReferences(pod)) {
      this.sql.exec(
        'INSERT OR IGNORE INTO node_refs (node, resource, namespace, name, pod) VALUES (?, ?, ?, ?, ?)',
        node,
        ref.resource,
        namespace,
        ref.name,
        key,
      )
    }
  }

  /** Creates the table, and fills it from the stored pods once. Synchronous: no write interleaves. */
  private ensure(): void {
    if (this.ready) return
    for (const statement of ddl) this.sql.exec(statement)
    if (!readMeta(this.sql, 'node_refs_built')) {
      for (const row of this.sql
        .exec<{ key: string; value: string }>('SELECT key, value FROM objects')
        .toArray())
        this.write(row.key, JSON.parse(row.value) as KubeObject)
      writeMeta(this.sql, 'node_refs_built', 1)
    }
    this.ready = true
  }
}
