// Runs edgeplane locally: the Worker in workerd (via Miniflare) behind an https front on 127.0.0.1
// that also verifies client certificates (https-front.ts), with its Durable Objects, certificate
// (also the cluster CA), admin token and kubeconfig kept in the state dir (mode 0700).
// Prints a join token for node agents; with --agent, the local agent joins with it.
//
//   --agent                               also run the node agent (src/agent/cli.ts) once it exists
//   EDGEPLANE_STATE=.edgeplane            state dir (relative to cwd); the agent's is <state>/agent
//   EDGEPLANE_PORT=8787                   https port
//   EDGEPLANE_NODE_MONITOR_GRACE_PERIOD   passed to the Worker as a binding of that name when set
//   EDGEPLANE_NODE_EVICTION_RATE and the other eviction rate settings: the same
//   CLUSTER_CIDR, NODE_CIDR_MASK_SIZE     the same: where node pod CIDRs are cut from, and their size
//   EDGEPLANE_POD_SECURITY_*              the same: Pod Security defaults and exemptions (refused at start when invalid)
//   EDGEPLANE_DEBUG=1                     print the full error when startup fails
//
// Cron triggers from wrangler.toml are fired by the launcher (cron.ts): standard five-field expressions, in UTC.
import { chmod, mkdir } from 'node:fs/promises'
import { hostname } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Miniflare } from 'miniflare'
import { defaultNodeName } from '../agent/host-info'
import { randomBytes } from 'node:crypto'
import type { Server } from 'node:http'
import { pickAgentRuntime, startAgent, type AgentHandle } from './agent'
import { startIngressListener } from './ingress'
import { startHttpsFront } from './https-front'
import { printBanner } from './banner'
import { bundleWorker } from './bundle'
import { parseCron, startCron, type CronSchedule } from './cron'
import { createJoinToken, hasNodeCredential } from './join-token'
import { writeKubeconfig } from './kubeconfig'
import { assertPortFree } from './port'
import { HOST } from './host'
import { readSettings, UsageError } from './settings'
import { ensureTls } from './tls'
import { ensureAdminToken } from './token'
import { loadWorkerConfig } from './worker-config'

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

let mf: Miniflare | undefined
let agent: AgentHandle | undefined
let ingress: Server | undefined
let front: Server | undefined
let stopCron = () => {}
let shuttingDown = false

async function main(): Promise<void> {
  const settings = readSettings(process.argv.slice(2), process.env)
  // Checked first so a taken port is the error reported, whatever else might fail later.
  await assertPortFree(HOST, settings.port)
  // Owner-only: it holds the admin token, the TLS key and every Durable Object's data.
  for (const dir of [settings.stateDir, join(settings.stateDir, 'do')]) {
    await mkdir(dir, { recursive: true, mode: 0o700 })
    await chmod(dir, 0o700)
  }

  // Independent steps run together; esbuild works in its own process while Miniflare's large
  // module graph loads here.
  const [worker, scriptPath, tls, admin, { startRuntime }] = await Promise.all([
    loadWorkerConfig(join(repoRoot, 'wrangler.toml')),
    bundleWorker(join(repoRoot, 'src', 'index.ts'), join(settings.stateDir, 'build')),
    ensureTls(settings.stateDir),
    ensureAdminToken(settings.stateDir),
    import('./runtime'),
  ])
  if (worker.fallbackReason)
    console.log(`edgeplane: bindings derived by wrangler (${worker.fallbackReason})`)

  const ingressSecret = randomBytes(24).toString('hex')
  const clientCertSecret = randomBytes(24).toString('hex')
  // The Worker listens on a loopback http port of its own; the https front on the API port ends TLS,
  // verifies client certificates against the cluster CA and passes their identity on.
  mf = startRuntime({
    scriptPath,
    worker,
    vars: {
      EDGEPLANE_INGRESS_ADDRESS: HOST,
      EDGEPLANE_API_ENDPOINT: `${HOST}:${settings.port}`,
      EDGEPLANE_ROOT_CA: tls.cert,
      ...settings.passThroughVars,
      ADMIN_TOKEN: admin.token,
      EDGEPLANE_INGRESS_SECRET: ingressSecret,
      EDGEPLANE_CLIENT_CERT_SECRET: clientCertSecret,
      // Locally request.cf is whatever the caller sends (Miniflare's MF-CF-Blob header): never trusted.
      EDGEPLANE_CLOUDFLARE_MTLS: 'false',
      CLUSTER_CA_CERT: tls.cert,
      CLUSTER_CA_KEY: tls.key,
    },
    stateDir: settings.stateDir,
    port: 0,
  })
  const upstreamPort = Number((await mf.ready).port)
  front = await startHttpsFront({
    port: settings.port,
    cert: tls.cert,
    key: tls.key,
    clientCa: tls.cert,
    upstreamPort,
    secret: clientCertSecret,
    ingressSecret,
  })
  const url = `https://${HOST}:${settings.port}`

  if (settings.ingressPort) {
    // The edge is an extra: a taken port is reported, and the API serves on.
    ingress = await startIngressListener({
      port: settings.ingressPort,
      apiPort: settings.port,
      ca: tls.cert,
      secret: ingressSecret,
    }).catch((err: Error) => {
      console.warn(
        `edgeplane: ingress not served on ${HOST}:${settings.ingressPort} (${err.message}); set EDGEPLANE_INGRESS_PORT to a free port`,
      )
      return undefined
    })
  }
  const kubeconfig = await writeKubeconfig(settings.stateDir, {
    server: url,
    caPem: tls.cert,
    token: admin.token,
  })
  stopCron = startCron(cronSchedules(worker.crons), async (cron, scheduledTime) => {
    if (!mf || shuttingDown) return
    const result = await (await mf.getWorker()).scheduled({ cron, scheduledTime })
    if (result.outcome !== 'ok')
      console.error(`edgeplane: scheduled handler for '${cron}' ended with '${result.outcome}'`)
  })
  const joinToken = await createJoinToken({ server: url, ca: tls.cert, adminToken: admin.token })
  if (settings.agent) {
    const agentState = join(settings.stateDir, 'agent')
    const name = defaultNodeName()
    const joined = await hasNodeCredential(agentState, name, url)
    agent = startAgent(repoRoot, {
      server: url,
      caCertPath: tls.certPath,
      stateDir: agentState,
      name,
      joinToken: joined ? undefined : joinToken,
      runtime: await pickAgentRuntime(),
    })
    if (!agent)
      console.log(
        'edgeplane: no node agent yet (src/agent/cli.ts is missing); running the server only',
      )
  }
  printBanner({
    url,
    stateDir: settings.stateDir,
    kubeconfig,
    caCertPath: tls.certPath,
    joinToken,
    startupMs: Math.round(process.uptime() * 1000),
    agentPid: agent?.pid,
    agentRuntime: agent?.runtime,
    ingressUrl: ingress ? `http://${HOST}:${settings.ingressPort}` : undefined,
  })
}

function cronSchedules(crons: string[]): CronSchedule[] {
  const out: CronSchedule[] = []
  for (const c of crons) {
    const s = parseCron(c)
    if (s) out.push(s)
    else console.warn(`edgeplane: cron '${c}' is not a valid cron expression and will not fire`)
  }
  return out
}

async function shutdown(code: number): Promise<never> {
  if (!shuttingDown) {
    shuttingDown = true
    stopCron()
    ingress?.close()
    front?.close()
    await Promise.allSettled([agent?.stop(), mf?.dispose()])
  }
  process.exit(code)
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
  process.on(signal, () => void shutdown(0))

main().catch(async (err: unknown) => {
  const message = err instanceof Error ? err.message : String(err)
  console.error(`edgeplane: failed to start: ${message.split('\n')[0]}`)
  if (!(err instanceof UsageError) && process.env.EDGEPLANE_DEBUG) console.error(err)
  await shutdown(1)
})
