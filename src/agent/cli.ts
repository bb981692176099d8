/**
 * The node agent's command line: `npm run agent -- --server URL --token JOIN_TOKEN --ca-cert FILE
 * --name NODE --runtime process|sim` (or `--kubeconfig FILE` for where and how to join).
 * Parses flags, joins (or loads the node's stored credential), builds one NodeAgent per node
 * (several when simulating), each acting with its own node credential, and stops them on
 * SIGINT/SIGTERM: watches and heartbeats end; processes are stopped, simulated pods are left as
 * they are for the next agent to adopt.
 */
import { connectTunnel } from './tunnel'
import { forbiddenNodeLabels, kubeletLabelNamespaces, kubeletLabels } from '../apis/node-restriction'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { CredentialError, nodeToken, prepareStateDir } from './credentials'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ApiClient } from './api-client'
import { parseQuantity } from './env'
import { apiEventRecorder } from './events'
import { defaultNodeName, machineCapacity, primaryIPv4, processNodeIdentity, simNodeIdentity, SIM_CAPACITY } from './host-info'
import { defaultKubeconfigPath, KubeconfigError, loadKubeconfig, type ClusterAccess } from './kubeconfig'
import { LEASE_NAMESPACE, LeaseIntervalError } from './lease'
import { createLogger } from './log'
import { RUNTIME_LABEL } from '../controllers/scheduler/runtime-fit'
import { NodeAgent } from './node-agent'
import { nodeWarning } from './node-event'
import { bindAddresses, parseNodePortAddresses } from './node-ports/addresses'
import { NodePorts } from './node-ports/node-ports'
import type { NodeIdentity } from './node-status'
import { createDockerRuntime, DEFAULT_INFRA_IMAGE, NoEngineError, type DockerSetup } from './runtime/docker'
import { ProcessRuntime } from './runtime/process'
import { localPathRoot } from './runtime/claim-path'
import { LocalPathSweeper } from './local-path'
import { LOCAL_PATH_ROOT_ANNOTATION } from '../controllers/persistentvolume/resources'
import { DEFAULT_SIM_START_DELAY_MS, PodIPAllocator, SimRuntime } from './runtime/sim'
import type { ManagedRuntime } from './runtime/types'

export interface AgentArgs {
  kubeconfig: string
  /** the API server's URL; when set, the kubeconfig is not read */
  server?: string
  /** the join token (bootstrap token `<id>.<secret>`) */
  token?: string
  /** PEM file the server certificate must chain to */
  caCert?: string
  stateDir: string
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
  /** as given; unset, the agent follows the control plane's published grace period */
  leaseSeconds?: number
  simStartDelayMs: number
  /** --nodeport-addresses: IPs or CIDRs to bind node ports on; unset, every address */
  nodePortAddresses?: string[]
  verbose: boolean
  help: boolean
}

export const USAGE = `usage: npm run agent -- [flags]

  --server URL             API server to join (with --token and --ca-cert; no kubeconfig is read)
  --token TOKEN            join token <id>.<secret>, presented once to obtain the node's credential
  --ca-cert FILE           PEM certificate the server's must chain to (default: the system roots)
  --kubeconfig FILE        instead of --server: kubeconfig to reach the API; its token (a join
                           token, or an admin's) is used once to join (default: $KUBECONFIG,
                           then ~/.kube/config)
  --state-dir DIR          where the node's credential and pods' working dirs are kept
                           (default: .edgeplane/agent, or $EDGEPLANE_AGENT_STATE)
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
  --lease-seconds N        lease renewal interval (default: 10, or a quarter of the control
                           plane's node monitor grace period when that is shorter)
  --nodeport-addresses LIST
                           IP addresses or CIDRs (comma-separated) to listen on for the node
                           ports of NodePort and LoadBalancer Services; a CIDR means this node's
                           addresses inside it (default: every address; the sim runtime opens no
                           node ports)
  --sim-start-delay-ms N   sim only: ContainerCreating → Running delay (default: 200,
                           or $EDGEPLANE_SIM_START_DELAY_MS)
  --verbose                debug logging
  --help                   this text`

export class UsageError extends Error {}

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/
const LABEL_KEY = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?$/

export { defaultNodeName }

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
  const leaseSeconds = values.has('lease-seconds') ? int(values.get('lease-seconds')!, 'lease-seconds', 1) : undefined
  const simStartDelayMs = int(values.get('sim-start-delay-ms') ?? env.EDGEPLANE_SIM_START_DELAY_MS ?? String(DEFAULT_SIM_START_DELAY_MS), 'sim-start-delay-ms', 0)

  if (values.has('server') && values.has('kubeconfig')) throw new UsageError('--server and --kubeconfig exclude each other')
  for (const flag of ['token', 'ca-cert']) if (values.has(flag) && !values.has('server')) throw new UsageError(`--${flag} goes with --server`)
  const server = values.get('server')
  if (server !== undefined && !/^https?:\/\/[^/]+\/?$/.test(server)) throw new UsageError(`--server must be an http(s) URL with no path, not "${server}"`)

  const args: AgentArgs = {
    kubeconfig: resolve(values.get('kubeconfig') ?? defaultKubeconfigPath(env)),
    stateDir: resolve(values.get('state-dir') ?? env.EDGEPLANE_AGENT_STATE ?? join('.edgeplane', 'agent')),
    name,
    runtime,
    labels: parseLabels(values.get('labels') ?? ''),
    nodes,
    leaseSeconds,
    simStartDelayMs,
    verbose: values.get('verbose') === 'true',
    help: values.get('help') === 'true',
  }
  if (server !== undefined) args.server = server.replace(/\/$/, '')
  if (values.has('token')) args.token = values.get('token')
  if (values.has('ca-cert')) args.caCert = resolve(values.get('ca-cert')!)
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
  if (values.has('nodeport-addresses')) {
    try {
      args.nodePortAddresses = parseNodePortAddresses(values.get('nodeport-addresses')!)
    } catch (err) {
      throw new UsageError((err as Error).message)
    }
  }
  return args
}

const KNOWN = new Set(['server', 'token', 'ca-cert', 'state-dir', 'kubeconfig', 'context', 'name', 'runtime', 'cpu', 'memory', 'pods', 'labels', 'nodes', 'lease-seconds', 'sim-start-delay-ms', 'container-socket', 'pod-infra-image', 'nodeport-addresses'])

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
  // As kubelet checks --node-labels: the API server would refuse the node these labels (NodeRestriction).
  const refused = forbiddenNodeLabels(out, undefined)
  if (refused.length) {
    throw new UsageError(`unknown 'kubernetes.io' or 'k8s.io' labels specified with --labels: ${refused.join(', ')}; a node may set only labels outside those domains, those under ${kubeletLabelNamespaces.join(', ')}, and ${[...kubeletLabels].sort().join(', ')}`)
  }
  return out
}

/** Where the API is and how to trust it, from --server/--ca-cert/--token or the kubeconfig. */
export function clusterAccess(args: Pick<AgentArgs, 'server' | 'token' | 'caCert' | 'kubeconfig' | 'context'>): ClusterAccess {
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
    tokens = await Promise.all(names.map((nodeName) => nodeToken({ access, stateDir: args.stateDir, nodeName, joinToken, log: (m) => log.info(m) })))
  } catch (err) {
    if (err instanceof CredentialError) {
      process.stderr.write(`edgeplane-agent: ${err.message}\n`)
      process.exit(2)
    }
    throw err
  }
  const userAgent = `edgeplane-agent/${args.runtime}`
  const clients = tokens.map((token) => new ApiClient({ ...access, token }, { maxSockets: names.length === 1 ? 16 : 6, userAgent }))
  const capacity = capacityFor(args)
  const ips = new PodIPAllocator()
  /** what else must end with the agent (per-node connections such as the logs/exec tunnel) */
  const closers: (() => Promise<unknown> | void)[] = []
  const labels = { [RUNTIME_LABEL]: args.runtime, ...args.labels }
  let docker: DockerSetup | undefined
  if (args.runtime === 'docker') {
    try {
      docker = await createDockerRuntime({ socket: args.containerSocket, nodeName: names[0]!, nodeIP: primaryIPv4(), infraImage: args.podInfraImage, get: (path) => clients[0]!.getOptional(path), record: apiEventRecorder(names[0]!, (path, body) => clients[0]!.create(path, body), (m) => log.debug(m)), log: log.child(`[${names[0]}]`) })
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
          : new ProcessRuntime({ nodeIP: primaryIPv4(), log: nodeLog, podsDir: join(args.stateDir, 'pods'), get: (path) => clients[i]!.getOptional(path) })
    const identity = args.runtime === 'sim' ? simNodeIdentity(name, labels, capacity) : processNodeIdentity(name, labels, capacity)
    identity.annotations = { [LOCAL_PATH_ROOT_ANNOTATION]: localPathRoot(args.stateDir, name) }
    // Simulated nodes keep no directories, and look less often (there may be hundreds of them).
    const sweeper = new LocalPathSweeper(clients[i]!, name, localPathRoot(args.stateDir, name), nodeLog, args.runtime === 'sim')
    sweeper.start()
    closers.push(() => sweeper.stop())
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
        addresses: bindAddresses(args.nodePortAddresses),
        log: nodeLog,
        warn: (reason, message) => {
          const event = nodeWarning(name, 'kube-proxy', reason, message, Date.now())
          client.create('/api/v1/namespaces/default/events', event).catch((err: Error) => nodeLog.debug(`recording event ${reason} failed: ${err.message}`))
        },
      })
      nodePorts.start()
      closers.push(() => nodePorts.stop())
    }
    return new NodeAgent({ api: clients[i]!, identity, runtime, log: nodeLog, leaseSeconds: args.leaseSeconds, serviceEnv: args.runtime === 'process' })
  })

  const shown = names.length > 3 ? `${names[0]} … ${names[names.length - 1]} (${names.length} nodes)` : names.join(', ')
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
    log.info(`${signal}: stopping (${args.runtime === 'process' ? 'containers get SIGTERM' : args.runtime === 'docker' ? 'containers are left running for the next agent' : 'simulated pods are left running'})`)
    for (const a of agents) a.stop()
    await Promise.allSettled([...closers.map((close) => close()), ...agents.map((a) => a.runtime.shutdown())])
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
  if (!stopping) log.info(`${names.length === 1 ? `node ${names[0]} is` : `${names.length} nodes are`} ready and watching pods`)
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href
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
