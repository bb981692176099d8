/**
 * The node agent's command line: `npm run agent -- --kubeconfig FILE --name NODE --runtime process|sim`.
 * Parses flags, builds one NodeAgent per node (several when simulating), and stops them on
 * SIGINT/SIGTERM: watches and heartbeats end; processes are stopped, simulated pods are left as
 * they are for the next agent to adopt.
 */
import { connectTunnel } from './tunnel'
import { nodeCredentials } from '../apimachinery/node-token'
import { hostname } from 'node:os'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ApiClient } from './api-client'
import { parseQuantity } from './env'
import { apiEventRecorder } from './events'
import { machineCapacity, primaryIPv4, processNodeIdentity, simNodeIdentity, SIM_CAPACITY } from './host-info'
import { defaultKubeconfigPath, KubeconfigError, loadKubeconfig, type ClusterAccess } from './kubeconfig'
import { LEASE_NAMESPACE } from './lease'
import { createLogger } from './log'
import { RUNTIME_LABEL } from '../controllers/scheduler/runtime-fit'
import { NodeAgent } from './node-agent'
import type { NodeIdentity } from './node-status'
import { createDockerRuntime, DEFAULT_INFRA_IMAGE, NoEngineError, type DockerSetup } from './runtime/docker'
import { ProcessRuntime } from './runtime/process'
import { DEFAULT_SIM_START_DELAY_MS, PodIPAllocator, SimRuntime } from './runtime/sim'
import type { ManagedRuntime } from './runtime/types'

export interface AgentArgs {
  kubeconfig: string
  context?: string
  name: string
  runtime: 'process' | 'sim' | 'docker'
  containerSocket?: string
  podInfraImage?: string
  cpu?: string
  memory?: string
  pods?: number
  labels: Record<string, string>
  nodes: number
  leaseSeconds: number
  simStartDelayMs: number
  verbose: boolean
  help: boolean
}

export const USAGE = `usage: npm run agent -- [flags]

  --kubeconfig FILE        kubeconfig to reach the API (default: $KUBECONFIG, then ~/.kube/config)
  --context NAME           kubeconfig context (default: its current-context)
  --name NODE              node name (default: this host's name); with --nodes, the prefix
  --runtime process|sim|docker
                           run containers as local processes, simulate them, or run images
                           in a container engine (Docker or Podman) (default: process)
  --container-socket PATH  docker: the engine's socket (default: /var/run/docker.sock, then
                           $XDG_RUNTIME_DIR/podman/podman.sock, /run/podman/podman.sock)
  --pod-infra-image IMAGE  docker: image of each pod's infra container (default: ${DEFAULT_INFRA_IMAGE})
  --cpu QUANTITY           cpu capacity (default: this machine's cpus; sim: 4)
  --memory QUANTITY        memory capacity, e.g. 16Gi (default: this machine's memory; sim: 16Gi)
  --pods N                 pod capacity (default: 110)
  --labels k=v,k2=v2       extra node labels
  --nodes N                sim only: simulate N nodes NODE-0 … NODE-(N-1) in this process
  --lease-seconds N        lease renewal interval (default: 10)
  --sim-start-delay-ms N   sim only: ContainerCreating → Running delay (default: 200,
                           or $EDGEPLANE_SIM_START_DELAY_MS)
  --verbose                debug logging
  --help                   this text`

export class UsageError extends Error {}

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/
const LABEL_KEY = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?$/

/** The host name as a node name: lower case, as kubelet registers it. */
export function defaultNodeName(host: string = hostname()): string {
  const name = host.toLowerCase().replace(/[^a-z0-9.-]/g, '-').replace(/^[-.]+|[-.]+$/g, '')
  return name || 'localhost'
}

/** Pure: the flags as typed, validated. */
export function parseArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): AgentArgs {
  const values = new Map<string, string>()
  const booleans = new Set(['verbose', 'help'])
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '-h') {
      values.set('help', 'true')
      continue
    }
    if (arg === '-v') {
      values.set('verbose', 'true')
      continue
    }
    if (!arg.startsWith('--')) throw new UsageError(`unexpected argument "${arg}"`)
    const eq = arg.indexOf('=')
    const key = eq > 0 ? arg.slice(2, eq) : arg.slice(2)
    if (booleans.has(key)) {
      values.set(key, eq > 0 ? arg.slice(eq + 1) : 'true')
      continue
    }
    if (!KNOWN.has(key)) throw new UsageError(`unknown flag --${key}`)
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i]
    if (value === undefined) throw new UsageError(`flag --${key} needs a value`)
    values.set(key, value)
  }

  const runtime = values.get('runtime') ?? 'process'
  if (runtime !== 'process' && runtime !== 'sim' && runtime !== 'docker') throw new UsageError(`--runtime must be "process", "sim" or "docker", not "${runtime}"`)
  // Node names are lower case; kubelet lowers a host name given to it the same way.
  const name = (values.get('name') ?? defaultNodeName()).toLowerCase()
  if (!DNS_SUBDOMAIN.test(name) || name.length > 253) throw new UsageError(`--name "${name}" is not a valid node name (lower-case DNS subdomain)`)
  const nodes = int(values.get('nodes') ?? '1', 'nodes', 1)
  if (nodes > 1 && runtime !== 'sim') throw new UsageError('--nodes is for the sim runtime only (one process runtime per machine)')
  const leaseSeconds = int(values.get('lease-seconds') ?? '10', 'lease-seconds', 1)
  const simStartDelayMs = int(values.get('sim-start-delay-ms') ?? env.EDGEPLANE_SIM_START_DELAY_MS ?? String(DEFAULT_SIM_START_DELAY_MS), 'sim-start-delay-ms', 0)

  const args: AgentArgs = {
    kubeconfig: resolve(values.get('kubeconfig') ?? defaultKubeconfigPath(env)),
    name,
    runtime,
    labels: parseLabels(values.get('labels') ?? ''),
    nodes,
    leaseSeconds,
    simStartDelayMs,
    verbose: values.get('verbose') === 'true',
    help: values.get('help') === 'true',
  }
  if (values.has('context')) args.context = values.get('context')
  for (const flag of ['container-socket', 'pod-infra-image'] as const) {
    if (!values.has(flag)) continue
    if (runtime !== 'docker') throw new UsageError(`--${flag} is for the docker runtime only`)
    if (flag === 'container-socket') args.containerSocket = resolve(values.get(flag)!)
    else args.podInfraImage = values.get(flag)!
  }
  if (values.has('cpu')) args.cpu = quantity(values.get('cpu')!, 'cpu')
  if (values.has('memory')) args.memory = quantity(values.get('memory')!, 'memory')
  if (values.has('pods')) args.pods = int(values.get('pods')!, 'pods', 1)
  return args
}

const KNOWN = new Set(['kubeconfig', 'context', 'name', 'runtime', 'cpu', 'memory', 'pods', 'labels', 'nodes', 'lease-seconds', 'sim-start-delay-ms', 'container-socket', 'pod-infra-image'])

function int(text: string, flag: string, min: number): number {
  const n = Number(text)
  if (!/^\d+$/.test(text) || n < min) throw new UsageError(`--${flag} must be a whole number of at least ${min}, not "${text}"`)
  return n
}

function quantity(text: string, flag: string): string {
  let n: number
  try {
    n = parseQuantity(text)
  } catch {
    throw new UsageError(`--${flag} "${text}" is not a quantity (e.g. 4, 500m, 16Gi)`)
  }
  if (!(n > 0)) throw new UsageError(`--${flag} must be positive`)
  return text
}

/** `k=v,k2=v2` as a label map, each key and value checked as Kubernetes checks labels. */
export function parseLabels(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const eq = part.indexOf('=')
    if (eq <= 0) throw new UsageError(`--labels entry "${part}" is not key=value`)
    const key = part.slice(0, eq)
    const value = part.slice(eq + 1)
    if (!LABEL_KEY.test(key)) throw new UsageError(`--labels key "${key}" is not a valid label key`)
    if (!LABEL_VALUE.test(value) || value.length > 63) throw new UsageError(`--labels value "${value}" (of ${key}) is not a valid label value`)
    out[key] = value
  }
  return out
}

/** The node names this invocation runs: the name, or NAME-0 … NAME-(N-1) when simulating several. */
export function nodeNames(args: Pick<AgentArgs, 'name' | 'nodes'>): string[] {
  if (args.nodes <= 1) return [args.name]
  return Array.from({ length: args.nodes }, (_, i) => `${args.name}-${i}`)
}

/** The capacity to report: flags over the runtime's defaults. */
export function capacityFor(args: Pick<AgentArgs, 'runtime' | 'cpu' | 'memory' | 'pods'>, machine: () => Record<string, string> = machineCapacity): Record<string, string> {
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
    access = loadKubeconfig(args.kubeconfig, args.context)
  } catch (err) {
    if (err instanceof KubeconfigError) {
      process.stderr.write(`edgeplane-agent: ${err.message}\n`)
      process.exit(2)
    }
    throw err
  }

  const log = createLogger({ prefix: 'edgeplane-agent', verbose: args.verbose })
  const names = nodeNames(args)
  // A single node acts with its own node credentials (NodeRestriction); one process simulating
  // many nodes shares one client and keeps the kubeconfig's credentials for it.
  const credentials = await Promise.all(names.map((name) => nodeCredentials(access.token, name)))
  if (names.length === 1) access = { ...access, token: credentials[0]!.token }
  const api = new ApiClient(access, { maxSockets: Math.min(64, 8 + names.length * 2), userAgent: `edgeplane-agent/${args.runtime}` })
  const capacity = capacityFor(args)
  const ips = new PodIPAllocator()
  /** what else must end with the agent (per-node connections such as the logs/exec tunnel) */
  const closers: (() => Promise<unknown> | void)[] = []
  const labels = { [RUNTIME_LABEL]: args.runtime, ...args.labels }
  let docker: DockerSetup | undefined
  if (args.runtime === 'docker') {
    try {
      docker = await createDockerRuntime({ socket: args.containerSocket, nodeName: names[0]!, nodeIP: primaryIPv4(), infraImage: args.podInfraImage, get: (path) => api.getOptional(path), record: apiEventRecorder(names[0]!, (path, body) => api.create(path, body), (m) => log.debug(m)), log: log.child(`[${names[0]}]`) })
    } catch (err) {
      if (!(err instanceof NoEngineError)) throw err
      process.stderr.write(`edgeplane-agent: ${err.message}\n`)
      process.exit(2)
    }
  }
  const agents = names.map((name, i) => {
    const nodeLog = log.child(`[${name}]`)
    const runtime: ManagedRuntime =
      args.runtime === 'sim' ? new SimRuntime({ nodeName: name, startDelayMs: args.simStartDelayMs, ips }) : docker ? docker.runtime : new ProcessRuntime({ nodeIP: primaryIPv4(), log: nodeLog })
    const identity = args.runtime === 'sim' ? simNodeIdentity(name, labels, capacity) : processNodeIdentity(name, labels, capacity)
    if (docker) {
      identity.info.containerRuntimeVersion = docker.runtimeVersion
      identity.instanceType = 'edgeplane-docker'
      watchImages(docker, identity, closers)
    }
    const tunnel = connectTunnel({
      server: access.server,
      ca: access.ca,
      insecureSkipTLSVerify: access.insecureSkipTlsVerify,
      token: credentials[i]!.token,
      nodeName: name,
      runtime,
      log: (m) => nodeLog.info(m),
      debug: (m) => nodeLog.debug(m),
    })
    closers.push(() => tunnel.close())
    return new NodeAgent({ api, identity, runtime, log: nodeLog, leaseSeconds: args.leaseSeconds })
  })

  const shown = names.length > 3 ? `${names[0]} … ${names[names.length - 1]} (${names.length} nodes)` : names.join(', ')
  process.stdout.write(
    [
      `edgeplane-agent: ${args.runtime} runtime, node ${shown}`,
      ...(docker ? [`  engine:   ${docker.runtimeVersion} on ${docker.socket}`] : []),
      `  api:      ${access.server} (kubeconfig ${args.kubeconfig})`,
      `  capacity: cpu ${capacity.cpu}, memory ${capacity.memory}, pods ${capacity.pods}`,
      `  lease:    ${LEASE_NAMESPACE}/<node> renewed every ${args.leaseSeconds}s`,
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
    log.info(`${signal}: stopping (${args.runtime === 'process' ? 'containers get SIGTERM' : args.runtime === 'docker' ? 'containers are left running for the next agent' : 'simulated pods are left running'})`)
    for (const a of agents) a.stop()
    await Promise.allSettled([...closers.map((close) => close()), ...agents.map((a) => a.runtime.shutdown())])
    api.close()
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
  if (!stopping) log.info(`${names.length === 1 ? `node ${names[0]} is` : `${names.length} nodes are`} ready and watching pods`)
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href
if (invokedDirectly) {
  main(process.argv.slice(2)).catch((err: Error) => {
    process.stderr.write(`edgeplane-agent: ${err.stack ?? err.message}\n`)
    process.exit(1)
  })
}
