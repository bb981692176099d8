/**
 * Starting (or syncing again) a pod: its containers' environment resolved from the API, then the
 * pod handed to the runtime. A pod whose environment cannot be resolved yet is retried.
 */
import type { KubeObject } from '../apimachinery/types'
import { resourcePath, type ApiClient, type KubeList } from './api-client'
import { resolvePodEnv, type EnvSources } from './container-env'
import type { Logger } from './log'
import type { NodeIdentity } from './node-status'
import type { ManagedRuntime } from './runtime/types'

export class PodStarter {
  constructor(
    private readonly api: ApiClient,
    private readonly runtime: ManagedRuntime,
    private readonly identity: NodeIdentity,
    private readonly log: Logger,
    /** give containers the service environment variables */
    private readonly serviceEnv: boolean,
    /** pods to hand to the runtime again (their environment was not resolved) */
    private readonly retry: Set<string>,
    private readonly closed: () => boolean,
  ) {}

  private envSources(): EnvSources {
    const get = (resource: string) => (ns: string, name: string) =>
      this.api.getOptional(resourcePath({ namespace: ns, resource, name }))
    const sources: EnvSources = { configMap: get('configmaps'), secret: get('secrets') }
    if (this.serviceEnv)
      sources.services = async (ns) =>
        (await this.api.get<KubeList>(resourcePath({ namespace: ns, resource: 'services' }))).items
    return sources
  }

  /** Hands the pod to the runtime with its containers' environment resolved. */
  async start(pod: KubeObject): Promise<void> {
    const uid = pod.metadata.uid ?? ''
    const first = this.runtime.status(uid) === undefined
    const podIP = this.runtime.podIP(pod)
    const { env, errors } = await resolvePodEnv(pod, this.envSources(), {
      podIP,
      hostIP: this.identity.internalIP,
      allocatable: this.identity.capacity,
    })
    if (this.closed()) return
    await this.runtime.sync(pod, env, errors)
    const names = Object.keys(errors)
    if (names.length) {
      if (!this.retry.has(uid))
        this.log.warn(
          `pod ${pod.metadata.namespace}/${pod.metadata.name}: ${names.map((n) => `container ${n}: ${errors[n]}`).join('; ')}`,
        )
      this.retry.add(uid)
    } else this.retry.delete(uid)
    if (first) this.log.info(`started pod ${pod.metadata.namespace}/${pod.metadata.name}`)
  }
}
