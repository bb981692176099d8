/**
 * The node's NodePorts, as kube-proxy serves them: the agent watches Services and Endpoints,
 * listens on the node port of every TCP port of a NodePort or LoadBalancer Service that has
 * somewhere to go, and joins each connection to a ready endpoint (table.ts decides, forward.ts
 * carries the bytes).
 */
import type { Socket } from 'node:net'
import type { KubeObject } from '../../apimachinery/types'
import type { ApiClient } from '../api-client'
import type { Logger } from '../log'
import { ListWatch, type WatchEventType } from '../pod-watch'
import type { ContainerRuntime } from '../runtime/types'
import type { Tunnel } from '../tunnel'
import { forwardConnection } from './forward'
import { NodePortListeners } from './listeners'
import { candidates, nodePortTable, openPorts, type NodePortEntry } from './table'

export interface NodePortsOptions {
  api: ApiClient
  node: string
  runtime: ContainerRuntime
  tunnel: Pick<Tunnel, 'dial'>
  /** the uid of a pod this node runs, by namespace and name */
  podUid(namespace: string, name: string): string | undefined
  /** where to bind (see addresses.ts); `[undefined]` for every address */
  addresses: Array<string | undefined>
  log: Logger
  /** a Warning Event about the Node, best effort */
  warn(reason: string, message: string): void
}

/** A port that could not be bound is tried again this often (and at every change). */
const retryMs = 30_000

export class NodePorts {
  private readonly services = new Map<string, KubeObject>()
  private readonly endpoints = new Map<string, KubeObject>()
  private readonly watches: ListWatch[]
  private readonly listeners: NodePortListeners
  private table = new Map<number, NodePortEntry>()
  private pending: NodeJS.Timeout | undefined
  private retry: NodeJS.Timeout | undefined

  constructor(private readonly opts: NodePortsOptions) {
    const follow = (into: Map<string, KubeObject>) => ({
      replace: (items: KubeObject[]) => {
        into.clear()
        for (const o of items) into.set(key(o), o)
        this.changed()
      },
      event: (type: WatchEventType, o: KubeObject) => {
        if (type === 'DELETED') into.delete(key(o))
        else into.set(key(o), o)
        this.changed()
      },
    })
    this.watches = [
      new ListWatch(
        opts.api,
        { path: '/api/v1/services', params: {} },
        follow(this.services),
        opts.log,
      ),
      new ListWatch(
        opts.api,
        { path: '/api/v1/endpoints', params: {} },
        follow(this.endpoints),
        opts.log,
      ),
    ]
    this.listeners = new NodePortListeners(
      opts.addresses,
      (port, socket) => this.accept(port, socket),
      (port, address, err) => this.unavailable(port, address, err),
    )
  }

  start(): void {
    for (const w of this.watches) w.start()
    this.retry = setInterval(
      () => this.listeners.sync(openPorts(this.table, this.opts.node)),
      retryMs,
    )
    this.retry.unref()
  }

  stop(): void {
    for (const w of this.watches) w.stop()
    clearTimeout(this.pending)
    clearInterval(this.retry)
    this.listeners.close()
  }

  /** The node ports listened on now. */
  listening(): number[] {
    return this.listeners.listening()
  }

  /** Changes come in bursts (a Service and its Endpoints): the table is rebuilt once after them. */
  private changed(): void {
    if (this.pending) return
    this.pending = setTimeout(() => {
      this.pending = undefined
      this.table = nodePortTable(this.services.values(), this.endpoints)
      this.listeners.sync(openPorts(this.table, this.opts.node))
    }, 50)
  }

  private accept(port: number, socket: Socket): void {
    const entry = this.table.get(port)
    const targets = entry
      ? candidates(entry, this.opts.node, Math.floor(Math.random() * 1_000_000))
      : []
    if (!entry || targets.length === 0) return void socket.resetAndDestroy()
    void forwardConnection(socket, entry, targets, this.opts)
  }

  private unavailable(port: number, address: string, err: Error): void {
    const entry = this.table.get(port)
    const owner = entry ? ` for service ${entry.namespace}/${entry.service}` : ''
    const message = `can't open port ${address}:${port}/tcp${owner}, skipping it: ${err.message}`
    this.opts.log.warn(message)
    this.opts.warn('FailedToOpenNodePort', message)
  }
}

function key(o: KubeObject): string {
  return `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`
}
