/**
 * The agent's queue of pod keys, as client-go's workqueue: a key is handled by one worker at a
 * time; a key added again while busy is kept dirty and runs again after; at most `concurrency`
 * keys run at once.
 */
export class WorkQueue {
  private readonly dirty = new Set<string>()
  private readonly busy = new Set<string>()
  private running = 0
  private closed = false

  constructor(
    private readonly work: (key: string) => Promise<void>,
    private readonly concurrency: number,
  ) {}

  add(key: string): void {
    if (this.closed) return
    this.dirty.add(key)
    this.pump()
  }

  close(): void {
    this.closed = true
    this.dirty.clear()
  }

  private pump(): void {
    while (this.running < this.concurrency && !this.closed) {
      let next: string | undefined
      for (const k of this.dirty) {
        if (!this.busy.has(k)) {
          next = k
          break
        }
      }
      if (next === undefined) return
      const key = next
      this.dirty.delete(key)
      this.busy.add(key)
      this.running++
      void this.work(key).finally(() => {
        this.busy.delete(key)
        this.running--
        this.pump()
      })
    }
  }
}
