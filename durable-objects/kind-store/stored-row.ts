/** A current object as stored: its key, resourceVersion and serialised value. */
export interface StoredRow {
  key: string
  rv: number
  value: string
  /** the node the object is bound to ('' if none), when the row was read with it */
  node?: string
}
