/**
 * The controllers a store has changes to tell of and has not yet reached: one row each, written
 * with the change that needs telling (the same implicit transaction), removed once a notification
 * sent after it was delivered. A store that restarts (an eviction, a deploy) sends them again, so
 * a change reaches its controllers at least once, and a burst of changes costs one row per
 * controller, not per change.
 */
export class NotifyOutbox {
  private created = false

  constructor(private readonly sql: SqlStorage) {}

  /** The controllers still to be reached. */
  pending(): string[] {
    this.ensure()
    return [...this.sql.exec<{ controller: string }>('SELECT controller FROM notify_outbox')].map(
      (r) => r.controller,
    )
  }

  add(controller: string): void {
    this.ensure()
    this.sql.exec('INSERT OR IGNORE INTO notify_outbox (controller) VALUES (?)', controller)
  }

  remove(controller: string): void {
    this.ensure()
    this.sql.exec('DELETE FROM notify_outbox WHERE controller = ?', controller)
  }

  private ensure(): void {
    if (this.created) return
    this.sql.exec(
      'CREATE TABLE IF NOT EXISTS notify_outbox (controller TEXT PRIMARY KEY) WITHOUT ROWID',
    )
    this.created = true
  }
}
