/** The node agent's flags: the usage text, and their parsing and checks (pure). */
import { join, resolve } from 'node:path'
import { parseArgs as parseFlags, type ParseArgsConfig } from 'node:util'
import {
  forbiddenNodeLabels,
  kubeletLabelNamespaces,
  kubeletLabels,
} from '../apis/node-restriction'
import {
  isDns1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
} from '../apimachinery/field-formats'
import { parseCpuMillis } from '../apimachinery/quantity'
import { defaultNodeName } from './host-info'
import { defaultKubeconfigPath } from './kubeconfig'
import { parseNodePortAddresses } from './node-ports/addresses'
import { DEFAULT_INFRA_IMAGE } from './runtime/docker'
import { DEFAULT_SIM_START_DELAY_MS } from './runtime/sim'

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

/** Pure: the flags as typed, validated. */
export function parseArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): AgentArgs {
  const values = new Map<string, string>()
  const { tokens } = parseFlags({
    args: argv,
    options: FLAGS,
    strict: false,
    allowPositionals: true,
    tokens: true,
  })
  for (const t of tokens) {
    if (t.kind === 'positional') throw new UsageError(`unexpected argument "${t.value}"`)
    if (t.kind === 'option-terminator') throw new UsageError('unexpected argument "--"')
    if (!t.rawName.startsWith('--') && t.rawName !== '-h' && t.rawName !== '-v')
      throw new UsageError(`unexpected argument "${t.rawName}"`)
    if (BOOLEAN_FLAGS.includes(t.name)) {
      values.set(t.name, t.inlineValue ? String(t.value) : 'true')
      continue
    }
    if (!STRING_FLAGS.includes(t.name)) throw new UsageError(`unknown flag --${t.name}`)
    if (t.value === undefined) throw new UsageError(`flag --${t.name} needs a value`)
    values.set(t.name, t.value)
  }

  const runtime = values.get('runtime') ?? 'process'
  if (runtime !== 'process' && runtime !== 'sim' && runtime !== 'docker')
    throw new UsageError(`--runtime must be "process", "sim" or "docker", not "${runtime}"`)
  // Node names are lower case; kubelet lowers a host name given to it the same way.
  const name = (values.get('name') ?? defaultNodeName()).toLowerCase()
  if (isDns1123Subdomain(name).length)
    throw new UsageError(`--name "${name}" is not a valid node name (lower-case DNS subdomain)`)
  const nodes = int(values.get('nodes') ?? '1', 'nodes', 1)
  if (nodes > 1 && runtime !== 'sim')
    throw new UsageError('--nodes is for the sim runtime only (one process runtime per machine)')
  const leaseSeconds = values.has('lease-seconds')
    ? int(values.get('lease-seconds')!, 'lease-seconds', 1)
    : undefined
  const simStartDelayMs = int(
    values.get('sim-start-delay-ms') ??
      env.EDGEPLANE_SIM_START_DELAY_MS ??
      String(DEFAULT_SIM_START_DELAY_MS),
    'sim-start-delay-ms',
    0,
  )

  if (values.has('server') && values.has('kubeconfig'))
    throw new UsageError('--server and --kubeconfig exclude each other')
  for (const flag of ['token', 'ca-cert'])
    if (values.has(flag) && !values.has('server'))
      throw new UsageError(`--${flag} goes with --server`)
  const server = values.get('server')
  if (server !== undefined && !/^https?:\/\/[^/]+\/?$/.test(server))
    throw new UsageError(`--server must be an http(s) URL with no path, not "${server}"`)

  const args: AgentArgs = {
    kubeconfig: resolve(values.get('kubeconfig') ?? defaultKubeconfigPath(env)),
    stateDir: resolve(
      values.get('state-dir') ?? env.EDGEPLANE_AGENT_STATE ?? join('.edgeplane', 'agent'),
    ),
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

const STRING_FLAGS = [
  'server',
  'token',
  'ca-cert',
  'state-dir',
  'kubeconfig',
  'context',
  'name',
  'runtime',
  'cpu',
  'memory',
  'pods',
  'labels',
  'nodes',
  'lease-seconds',
  'sim-start-delay-ms',
  'container-socket',
  'pod-infra-image',
  'nodeport-addresses',
]
const BOOLEAN_FLAGS = ['verbose', 'help']
const FLAGS: NonNullable<ParseArgsConfig['options']> = {
  ...Object.fromEntries(STRING_FLAGS.map((f) => [f, { type: 'string' as const }])),
  verbose: { type: 'boolean', short: 'v' },
  help: { type: 'boolean', short: 'h' },
}

function int(text: string, flag: string, min: number): number {
  const n = Number(text)
  if (!/^\d+$/.test(text) || n < min)
    throw new UsageError(`--${flag} must be a whole number of at least ${min}, not "${text}"`)
  return n
}

function quantity(text: string, flag: string): string {
  let n: number
  try {
    n = parseCpuMillis(text)
  } catch {
    throw new UsageError(`--${flag} "${text}" is not a quantity (e.g. 4, 500m, 16Gi)`)
  }
  if (!(n > 0)) throw new UsageError(`--${flag} must be positive`)
  return text
}

/** `k=v,k2=v2` as a label map, each key and value checked as Kubernetes checks labels. */
export function parseLabels(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const eq = part.indexOf('=')
    if (eq <= 0) throw new UsageError(`--labels entry "${part}" is not key=value`)
    const key = part.slice(0, eq)
    const value = part.slice(eq + 1)
    if (isQualifiedName(key).length)
      throw new UsageError(`--labels key "${key}" is not a valid label key`)
    if (isValidLabelValue(value).length)
      throw new UsageError(`--labels value "${value}" (of ${key}) is not a valid label value`)
    out[key] = value
  }
  // As kubelet checks --node-labels: the API server would refuse the node these labels (NodeRestriction).
  const refused = forbiddenNodeLabels(out, undefined)
  if (refused.length) {
    throw new UsageError(
      `unknown 'kubernetes.io' or 'k8s.io' labels specified with --labels: ${refused.join(', ')}; a node may set only labels outside those domains, those under ${kubeletLabelNamespaces.join(', ')}, and ${[...kubeletLabels].sort().join(', ')}`,
    )
  }
  return out
}
