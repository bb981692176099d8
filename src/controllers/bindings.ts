import type { AdmissionBindings } from '../admission/bindings'
import type { ControllerCounters } from '../../durable-objects/controller-host/counters'
import type { ObjectUsage } from '../limits/object-usage'
import type { KubeObject } from '../apimachinery/types'

/** What controllers need: they read and write the stores, their creates passing admission. */
export type ControllerBindings = AdmissionBindings

/** The calls made on a controller host (durable-objects/controller-host, which implements them), each naming the controller it is for. */
export interface ControllerHostRpc extends Rpc.DurableObjectBranded {
  /** a store committed a change the controller watches: its pass comes soon */
  poke(name: string): Promise<void>
  /** objects of the store `store` (`group/plural`) passed their deadline unchanged: a pass over what they concern comes soon */
  pokeDue(name: string, store: string, objects: KubeObject[]): Promise<void>
  /** the cron safety net: re-arms a host whose alarm was lost */
  ensureAlarm(name: string): Promise<void>
  readCounters(name: string): Promise<ControllerCounters>
  /** what the host is billed for, in strict-limits mode (null otherwise) */
  readUsage(): ObjectUsage | null
  /** takes over what the controller remembered in the host it ran in before */
  adoptMemory(name: string, entries: [string, unknown][]): Promise<void>
}

/** What reaching the controllers' hosts needs (hosts.ts): the controllers' own bindings and the hosts. */
export interface HostBindings extends ControllerBindings {
  /** one host per controller, or shared by the controllers that watch pods, named `controller/<host>` */
  CONTROLLER_HOST: Pick<DurableObjectNamespace<ControllerHostRpc>, 'idFromName' | 'get'>
}
