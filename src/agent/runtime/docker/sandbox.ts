/** A pod's sandbox: the infra container holding the pod's network namespace, on this node's pod network. */
import { infraConfig, isHostNetwork } from './container-config'
import { engineMessage } from './engine'
import { containerIP } from './engine-state'
import { ensureImage, ImageError } from './images'
import { podNetwork } from './network'
import type { DockerRuntimeOptions } from './options'
import type { PodRec } from './pod-record'

export type SandboxOptions = Pick<
  DockerRuntimeOptions,
  'docker' | 'nodeName' | 'nodeIP' | 'infraImage' | 'infraCommand' | 'network' | 'get' | 'log'
>

export class Sandboxes {
  /** the network chosen for this node's pods, decided on the first sandbox */
  private network: Promise<string> | undefined
  /** the infra image's command, once its image was found (asked once, not per pod) */
  private infra: Promise<string[] | undefined> | undefined

  constructor(
    private readonly opts: SandboxOptions,
    private readonly remove: (id: string) => Promise<unknown>,
  ) {}

  /**
   * Creates and starts the pod's infra container and learns the pod's IP. On failure what was made
   * is removed, `warn` hears the FailedCreatePodSandBox message, and the error carries it.
   */
  async create(rec: PodRec, warn: (message: string) => void): Promise<void> {
    const { docker } = this.opts
    const image = this.opts.infraImage
    try {
      this.infra ??= ensureImage(docker, image, 'IfNotPresent').then(() => this.infraCommand(image))
      const command = await this.infra.catch((err: unknown) => {
        this.infra = undefined
        throw err
      })
      const network = isHostNetwork(rec.pod) ? this.opts.network : await this.podNetwork()
      const config = infraConfig(rec.pod, { image, command, nodeName: this.opts.nodeName, network })
      const created = await docker.createContainer(config)
      rec.infraId = created.id
      await created.start()
      rec.podIP = isHostNetwork(rec.pod) ? this.opts.nodeIP : containerIP(await created.inspect())
    } catch (err) {
      const message = `Failed to create pod sandbox: ${err instanceof ImageError ? err.message : engineMessage(err)}`
      this.infra = undefined
      if (rec.infraId) await this.remove(rec.infraId)
      rec.infraId = undefined
      warn(message)
      throw new Error(message)
    }
  }

  /** The engine network of this node's pods, chosen once the Node has its podCIDR. */
  private podNetwork(): Promise<string> {
    this.network ??= podNetwork(
      this.opts.docker,
      this.opts.get,
      this.opts.nodeName,
      this.opts.network,
      this.opts.log,
    )
    return this.network.catch((err: unknown) => {
      this.network = undefined
      throw err
    })
  }

  /** The infra image's own command, else (a plain image such as busybox) one that waits forever. */
  private async infraCommand(image: string): Promise<string[] | undefined> {
    if (this.opts.infraCommand) return this.opts.infraCommand
    const config = (await this.opts.docker.getImage(image).inspect()).Config
    return config?.Cmd?.length || (config?.Entrypoint as string[] | undefined)?.length
      ? undefined
      : ['sleep', 'inf']
  }
}
