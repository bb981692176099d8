import { createServer, type Server, type Socket } from 'node:net'

/** The TCP listeners of the open node ports, one per port and bind address. */
export class NodePortListeners {
  private readonly servers = new Map<string, Server>()
  /** ports that could not be bound, reported once until they are */
  private readonly failed = new Set<string>()

  constructor(
    private readonly addresses: Array<string | undefined>,
    private readonly onConnection: (nodePort: number, socket: Socket) => void,
    private readonly report: (nodePort: number, address: string, error: Error) => void,
  ) {}

  /** Listens on exactly these ports: opens the new ones (and those that failed before), closes the rest. */
  sync(ports: Set<number>): void {
    for (const [key, server] of this.servers) {
      if (ports.has(Number(key.split('|')[0]))) continue
      this.servers.delete(key)
      server.close()
    }
    for (const key of this.failed)
      if (!ports.has(Number(key.split('|')[0]))) this.failed.delete(key)
    for (const port of ports) for (const address of this.addresses) this.open(port, address)
  }

  /** The ports listened on now (for tests and diagnostics). */
  listening(): number[] {
    return [...new Set([...this.servers.keys()].map((k) => Number(k.split('|')[0])))].sort(
      (a, b) => a - b,
    )
  }

  close(): void {
    for (const server of this.servers.values()) server.close()
    this.servers.clear()
  }

  private open(port: number, address: string | undefined): void {
    const key = `${port}|${address ?? ''}`
    if (this.servers.has(key)) return
    const server = createServer({ pauseOnConnect: true }, (socket) =>
      this.onConnection(port, socket),
    )
    this.servers.set(key, server)
    server.once('listening', () => this.failed.delete(key))
    server.on('error', (err) => {
      // Never fatal: the port is tried again at the next sync.
      if (this.servers.get(key) === server) this.servers.delete(key)
      server.close()
      if (!this.failed.has(key)) this.report(port, address ?? '*', err)
      this.failed.add(key)
    })
    server.listen({ port, host: address })
  }
}
