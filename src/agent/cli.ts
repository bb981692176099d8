/**
 * The node agent's command line: `npm run agent -- --server URL --token JOIN_TOKEN --ca-cert FILE
 * --name NODE --runtime process|sim` (or `--kubeconfig FILE` for where and how to join).
 * Parses flags, joins (or loads the node's stored credential), builds one NodeAgent per node
 * (several when simulating), each acting with its own node credential, and stops them on
 * SIGINT/SIGTERM: watches and heartbeats end; processes are stopped, simulated pods are left as
 * they are for the next agent to adopt.
 */
import { connectTunnel } from './tunnel'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { CredentialError, nodeToken, prepareStateDir } from './credentials'
import { pathToFileURL } from 'node:url'
import { ApiClient } from './api-client'
import { apiEventRecorder } from './events'
import {
  defaultNodeName,
  machineCapacity,
  primaryIPv4,
  processNodeIdentity,
  simNodeIdentity,
  SIM_CAPACITY,
} from './host-info'
import { KubeconfigError, loadKubeconfig, type ClusterAccess } from './kubeconfig'
import { LEASE_NAMESPACE, LeaseIntervalError } from './lease'
import { createLogger } from './log'
import { RUNTIME_LABEL } from '../agent-protocol/runtime-label'
import { NodeAgent } from './node-agent'
import { nodeWarning } from './node-event'
import { bindAddresses } from './node-ports/addresses'
import { NodePorts } from './node-ports/node-ports'
import type { NodeIdentity } from './node-status'
import { createDockerRuntime, NoEngineError, type DockerSetup } from './runtime/docker'
import { ProcessRuntime } from './runtime/process'
import { localPathRoot } from './runtime/claim-path'
import { LOCAL_PATH_ROOT_ANNOTATION } from '../apis/storage/annotations'
import { PodIPAllocator, SimRuntime } from './runtime/sim'
import type { ManagedRuntime } from './runtime/types'
import { parseArgs, UsageError, USAGE, type AgentArgs } from './args'

export { defaultNodeName }

/** The flags, also reachable from the command line's module. */
export { parseArgs, parseLabels, UsageError, USAGE, type AgentArgs } from './args'

/** Where the API is and how to trust it, from --server/--ca-cert/--token or the kubeconfig. */
export function clusterAccess(
  args: Pick<AgentArgs, 'server' | 'token' | 'caCert' | 'kubeconfig' | 'context'>,
): ClusterAccess {
  if (!args.server) return loadKubeconfig(args.kubeconfig, args.context)
  const access: ClusterAccess = { server: args.server }
  if (args.token) access.token = args.token
  if (args.caCert) {
    try {
      access.ca = readFileSync(args.caCert, 'utf8')
    } catch (err) {
      throw new KubeconfigError(`cannot read --ca-cert ${args.caCert}: ${(err as Error).message}`)
    }
  }
  return access
}

/** The node names this invocation runs: the name, or NAME-0 … NAME-(N-1) when simulating several. */
export function nodeNames(args: Pick<AgentArgs, 'name' | 'nodes'>): string[] {
  if (args.nodes <= 1) return [args.name]
  return Array.from({ length: args.nodes }, (_, i) => `${args.name}-${i}`)
}

/** The capacity to report: flags over the runtime's defaults. */
export function capacityFor(
  args: Pick<AgentArgs, 'runtime' | 'cpu' | 'memory' | 'pods'>,
  machine: () => Record<string, string> = machineCapacity,
): Record<string, string> {
  const base = args.runtime === 'sim' ? { ...SIM_CAPACITY } : machine()
  if (args.cpu) base.cpu = args.cpu
  if (args.memory) base.memory = args.memory
  if (args.pods !== undefined) base.pods = String(args.pods)
  return base
}

/** Keeps the Node's status.images up to date with the engine's images (every minute, as kubelet's image list). */
function watchImages(docker: DockerSetup, identity: NodeIdentity, closers: (() => void)[]): void {
  const refresh = () =>
    docker.images().then(
      (images) => (identity.images = images),
      () => {},
    )
  void refresh()
  const timer = setInterval(refresh, 60_000)
  timer.unref()
  closers.push(() => clearInterval(timer))
}

export async function main(argv: string[]): Promise<void> {
  let args: AgentArgs
  try {
    args = parseArgs(argv)
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`edgeplane-agent: ${err.message}\n\n${USAGE}\n`)
      process.exit(2)
    }
    throw err
  }
  if (args.help) {
    process.stdout.write(USAGE + '\n')
    return
  }
  let access: ClusterAccess
  try {
    access = clusterAccess(args)
  } catch (err) {
    if (err instanceof KubeconfigError) {
      process.stderr.write(`edgeplane-agent: ${err.message}\n`)
      process.exit(2)
    }
    throw err
  }

  const log = createLogger({ prefix: 'edgeplane-agent', verbose: args.verbose })
  const names = nodeNames(args)
  // The token the agent was started with serves once, to join; every node then acts with its own
  // credential (NodeRestriction), through its own client.
  const joinToken = access.token
  await prepareStateDir(args.stateDir)
  let tokens: string[]
  try {
    tokens = await Promise.all(
      names.map((nodeName) =>
        nodeToken({
          access,
          stateDir: args.stateDir,
          nodeName,
          joinToken,
          log: (m) => log.info(m),
        }),
      ),
    )
  } catch (err) {
    if (err instanceof CredentialError) {
      process.stderr.write(`edgeplane-agent: ${err.message}\n`)
      process.exit(2)
    }
    throw err
  }
  const userAgent = `edgeplane-agent/${args.runtime}`
  const clients = tokens.map(
    (token) =>
      new ApiClient({ ...access, token }, { maxSockets: names.length === 1 ? 16 : 6, userAgent }),
  )
  const capacity = capacityFor(args)
  const ips = new PodIPAllocator()
  /** what else must end with the agent (per-node connections such as the logs/exec tunnel) */
  const closers: (() => Promise<unknown> | void)[] = []
  const labels = { [RUNTIME_LABEL]: args.runtime, ...args.labels }
  let docker: DockerSetup | undefined
  if (args.runtime === 'docker') {
    try {
      docker = await createDockerRuntime({
        socket: args.containerSocket,
        nodeName: names[0]!,
        nodeIP: primaryIPv4(),
        infraImage: args.podInfraImage,
        get: (path) => clients[0]!.getOptional(path),
        record: apiEventRecorder(
          names[0]!,
          (path, body) => clients[0]!.create(path, body),
          (m) => log.debug(m),
        ),
        log: log.child(`[${names[0]}]`),
      })
    } catch (err) {
      if (!(err instanceof NoEngineError)) throw err
      process.stderr.write(`edgeplane-agent: ${err.message}\n`)
      process.exit(2)
    }
  }
  const agents = names.map((name, i) => {
    const nodeLog = log.child(`[${name}]`)
    const runtime: ManagedRuntime =
      args.runtime === 'sim'
        ? new SimRuntime({ nodeName: name, startDelayMs: args.simStartDelayMs, ips })
        : docker
          ? docker.runtime
          : new ProcessRuntime({
              nodeIP: primaryIPv4(),
              log: nodeLog,
              podsDir: join(args.stateDir, 'pods'),
              get: (path) => clients[i]!.getOptional(path),
            })
    const identity =
      args.runtime === 'sim'
        ? simNodeIdentity(name, labels, capacity)
        : processNodeIdentity(name, labels, capacity)
    identity.annotations = { [LOCAL_PATH_ROOT_ANNOTATION]: localPathRoot(args.stateDir, name) }
    if (docker) {
      identity.info.containerRuntimeVersion = docker.runtimeVersion
      identity.instanceType = 'edgeplane-docker'
      watchImages(docker, identity, closers)
    }
    const tunnel = connectTunnel({
      server: access.server,
      ca: access.ca,
      insecureSkipTLSVerify: access.insecureSkipTlsVerify,
      token: tokens[i]!,
      nodeName: name,
      runtime,
      log: (m) => nodeLog.info(m),
      debug: (m) => nodeLog.debug(m),
    })
    closers.push(() => tunnel.close())
    if (args.runtime !== 'sim') {
      // Simulated pods listen nowhere, so a sim node opens no node ports.
      const client = clients[i]!
      const nodePorts = new NodePorts({
        api: client,
        node: name,
        runtime,
        tunnel,
        podUid: (namespace, pod) => agents[i]?.podUid(namespace, pod),
        addresses: bindAddresses(args.nodePortAddresses),
        log: nodeLog,
        warn: (reason, message) => {
          const event = nodeWarning(name, 'kube-proxy', reason, message, Date.now())
          client
            .create('/api/v1/namespaces/default/events', event)
            .catch((err: Error) =>
              nodeLog.debug(`recording event ${reason} failed: ${err.message}`),
            )
        },
      })
      nodePorts.start()
      closers.push(() => nodePorts.stop())
    }
    return new NodeAgent({
      api: clients[i]!,
      identity,
      runtime,
      log: nodeLog,
      leaseSeconds: args.leaseSeconds,
      serviceEnv: args.runtime === 'process',
      // Simulated nodes keep no directories, and retry less often (there may be hundreds of them).
      localPath: { root: localPathRoot(args.stateDir, name), simulated: args.runtime === 'sim' },
    })
  })

  const shown =
    names.length > 3
      ? `${names[0]} … ${names[names.length - 1]} (${names.length} nodes)`
      : names.join(', ')
  process.stdout.write(
    [
      `edgeplane-agent: ${args.runtime} runtime, node ${shown}`,
      ...(docker ? [`  engine:   ${docker.runtimeVersion} on ${docker.socket}`] : []),
      `  api:      ${access.server}${args.server ? '' : ` (kubeconfig ${args.kubeconfig})`}`,
      `  state:    ${args.stateDir}`,
      `  capacity: cpu ${capacity.cpu}, memory ${capacity.memory}, pods ${capacity.pods}`,
      `  lease:    ${LEASE_NAMESPACE}/<node> renewed every ${args.leaseSeconds === undefined ? 'quarter of the grace period, at most 10 s' : `${args.leaseSeconds}s`}`,
      '',
    ].join('\n'),
  )

  let stopping = false
  const shutdown = async (signal: string) => {
    if (stopping) {
      log.warn(`${signal} again: exiting now`)
      process.exit(1)
    }
    stopping = true
    log.info(
      `${signal}: stopping (${args.runtime === 'process' ? 'containers get SIGTERM' : args.runtime === 'docker' ? 'containers are left running for the next agent' : 'simulated pods are left running'})`,
    )
    for (const a of agents) a.stop()
    await Promise.allSettled([
      ...closers.map((close) => close()),
      ...agents.map((a) => a.runtime.shutdown()),
    ])
    for (const c of clients) c.close()
    process.exit(0)
  }
  process.on('SIGINT', () => void shutdown('SIGINT'))
  process.on('SIGTERM', () => void shutdown('SIGTERM'))

  await Promise.all(
    agents.map(async (a) => {
      await a.start()
      await a.whenSynced()
    }),
  )
  if (!stopping)
    log.info(
      `${names.length === 1 ? `node ${names[0]} is` : `${names.length} nodes are`} ready and watching pods`,
    )
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href
if (invokedDirectly) {
  main(process.argv.slice(2)).catch((err: Error) => {
    if (err instanceof LeaseIntervalError) {
      process.stderr.write(`edgeplane-agent: ${err.message}\n`)
      process.exit(2)
    }
    process.stderr.write(`edgeplane-agent: ${err.stack ?? err.message}\n`)
    process.exit(1)
  })
}
