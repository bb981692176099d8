import { spawn } from 'node:child_process'
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { connect } from 'node:net'

/** core/v1 Probe, as far as the agent acts on it. */
export interface Probe {
  exec?: { command?: string[] }
  httpGet?: {
    path?: string
    port: number | string
    host?: string
    scheme?: string
    httpHeaders?: { name: string; value: string }[]
  }
  tcpSocket?: { port: number | string; host?: string }
  grpc?: { port: number; service?: string }
  initialDelaySeconds?: number
  periodSeconds?: number
  timeoutSeconds?: number
  successThreshold?: number
  failureThreshold?: number
  terminationGracePeriodSeconds?: number
}

export type ProbeKind = 'startup' | 'readiness' | 'liveness'

/** Where and how a probe runs: the container's address, named ports, environment and directory. */
export interface ProbeTarget {
  host: string
  ports?: Record<string, number>
  env?: Record<string, string>
  cwd?: string
  /** the user exec probes run as, when the container runs as another one */
  uid?: number
  gid?: number
  /** runs an exec probe's command inside the container (a container engine); else it runs as a local process */
  exec?(command: string[], timeoutMs: number): Promise<ProbeOutcome>
}

export interface ProbeOutcome {
  ok: boolean
  /** what kubelet would put in its "probe failed" event */
  message: string
}

/** Probe fields with kubelet's defaults applied. */
export function probeTiming(probe: Probe): {
  initialDelayMs: number
  periodMs: number
  timeoutMs: number
  successThreshold: number
  failureThreshold: number
} {
  const pos = (v: number | undefined, d: number) => (typeof v === 'number' && v > 0 ? v : d)
  return {
    initialDelayMs: Math.max(0, probe.initialDelaySeconds ?? 0) * 1000,
    periodMs: pos(probe.periodSeconds, 10) * 1000,
    timeoutMs: pos(probe.timeoutSeconds, 1) * 1000,
    successThreshold: pos(probe.successThreshold, 1),
    failureThreshold: pos(probe.failureThreshold, 3),
  }
}

/** Runs one probe attempt; never throws. */
export async function runProbe(
  probe: Probe,
  target: ProbeTarget,
  timeoutMs = probeTiming(probe).timeoutMs,
): Promise<ProbeOutcome> {
  try {
    if (probe.exec)
      return await (target.exec
        ? target.exec(probe.exec.command ?? [], timeoutMs)
        : execProbe(probe.exec.command ?? [], target, timeoutMs))
    if (probe.httpGet) return await httpProbe(probe.httpGet, target, timeoutMs)
    if (probe.tcpSocket) return await tcpProbe(probe.tcpSocket, target, timeoutMs)
    if (probe.grpc) return { ok: false, message: 'grpc probes are not supported by this node' }
    return { ok: false, message: 'probe has no handler (exec, httpGet or tcpSocket)' }
  } catch (err) {
    return { ok: false, message: (err as Error).message }
  }
}

function resolvePort(port: number | string, target: ProbeTarget): number {
  if (typeof port === 'number') return port
  if (/^\d+$/.test(port)) return Number(port)
  const named = target.ports?.[port]
  if (named === undefined) throw new Error(`unable to find port "${port}" in the container's ports`)
  return named
}

const OUTPUT_LIMIT = 10 * 1024

function execProbe(
  command: string[],
  target: ProbeTarget,
  timeoutMs: number,
): Promise<ProbeOutcome> {
  if (command.length === 0)
    return Promise.resolve({ ok: false, message: 'exec probe has no command' })
  return new Promise((resolve) => {
    let output = ''
    let done = false
    const finish = (outcome: ProbeOutcome) => {
      if (done) return
      done = true
      clearTimeout(timer)
      resolve(outcome)
    }
    const child = spawn(command[0]!, command.slice(1), {
      cwd: target.cwd,
      env: target.env,
      uid: target.uid,
      gid: target.gid,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    })
    const collect = (c: Buffer) => {
      if (output.length < OUTPUT_LIMIT) output += c.toString('utf8')
    }
    child.stdout.on('data', collect)
    child.stderr.on('data', collect)
    const timer = setTimeout(() => {
      killGroup(child.pid)
      finish({
        ok: false,
        message: `command ${JSON.stringify(command)} timed out after ${timeoutMs / 1000}s`,
      })
    }, timeoutMs)
    child.on('error', (err) =>
      finish({ ok: false, message: `exec ${JSON.stringify(command[0])} failed: ${err.message}` }),
    )
    child.on('close', (code, signal) => {
      const text = output.trim()
      if (code === 0) finish({ ok: true, message: text })
      else
        finish({
          ok: false,
          message: text || `command ${JSON.stringify(command)} exited with ${code ?? signal}`,
        })
    })
  })
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return
  try {
    process.kill(-pid, 'SIGKILL')
  } catch {
    // already gone
  }
}

function httpProbe(
  get: NonNullable<Probe['httpGet']>,
  target: ProbeTarget,
  timeoutMs: number,
): Promise<ProbeOutcome> {
  const port = resolvePort(get.port, target)
  const scheme = (get.scheme ?? 'HTTP').toUpperCase()
  const host = get.host || target.host
  let path = get.path ?? '/'
  if (!path.startsWith('/')) path = `/${path}`
  const headers: Record<string, string> = { 'User-Agent': 'kube-probe/1.32', Accept: '*/*' }
  for (const h of get.httpHeaders ?? []) headers[h.name] = h.value
  const url = `${scheme === 'HTTPS' ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}${path}`
  const send = scheme === 'HTTPS' ? httpsRequest : httpRequest
  return new Promise((resolve) => {
    // Certificates are not verified, as kubelet's HTTPS probes do not verify them.
    const req = send(
      url,
      { method: 'GET', headers, timeout: timeoutMs, rejectUnauthorized: false } as never,
      (res) => {
        const code = res.statusCode ?? 0
        let body = ''
        res.on('data', (c: Buffer) => {
          if (body.length < OUTPUT_LIMIT) body += c.toString('utf8')
        })
        res.on('end', () => {
          if (code >= 200 && code < 400)
            resolve({ ok: true, message: `HTTP probe succeeded with statuscode: ${code}` })
          else resolve({ ok: false, message: `HTTP probe failed with statuscode: ${code}` })
        })
        res.on('error', (err) => resolve({ ok: false, message: `Get "${url}": ${err.message}` }))
      },
    )
    req.on('timeout', () =>
      req.destroy(
        new Error('context deadline exceeded (Client.Timeout exceeded while awaiting headers)'),
      ),
    )
    req.on('error', (err) => resolve({ ok: false, message: `Get "${url}": ${err.message}` }))
    req.end()
  })
}

function tcpProbe(
  tcp: NonNullable<Probe['tcpSocket']>,
  target: ProbeTarget,
  timeoutMs: number,
): Promise<ProbeOutcome> {
  const port = resolvePort(tcp.port, target)
  const host = tcp.host || target.host
  return new Promise((resolve) => {
    const socket = connect({ host, port })
    const finish = (outcome: ProbeOutcome) => {
      clearTimeout(timer)
      socket.destroy()
      resolve(outcome)
    }
    const timer = setTimeout(
      () => finish({ ok: false, message: `dial tcp ${host}:${port}: i/o timeout` }),
      timeoutMs,
    )
    socket.once('connect', () => finish({ ok: true, message: '' }))
    socket.once('error', (err) =>
      finish({ ok: false, message: `dial tcp ${host}:${port}: ${err.message}` }),
    )
  })
}

/**
 * A probe's result under its thresholds, as kubelet's probe worker keeps it: the result flips only
 * after `successThreshold` successes or `failureThreshold` failures in a row.
 */
export class ProbeCounter {
  private run = 0
  private last: boolean | undefined

  constructor(
    private readonly successThreshold: number,
    private readonly failureThreshold: number,
    public result: boolean | undefined,
  ) {}

  /** Records one attempt; true when the result changed. */
  observe(ok: boolean): boolean {
    if (this.last === ok) this.run++
    else {
      this.last = ok
      this.run = 1
    }
    const threshold = ok ? this.successThreshold : this.failureThreshold
    if (this.run < threshold || this.result === ok) return false
    this.result = ok
    return true
  }
}

/** The result each probe kind holds before its first verdict: not ready, alive, not started. */
export function initialProbeResult(kind: ProbeKind): boolean | undefined {
  return kind === 'liveness' ? true : kind === 'readiness' ? false : undefined
}

/**
 * Runs one probe of one container instance on its schedule (initialDelay from `startedAtMs`, then
 * every period, never overlapping) and reports each change of its result.
 */
export class ProbeWorker {
  readonly counter: ProbeCounter
  private timer: NodeJS.Timeout | undefined
  private stopped = false
  lastMessage = ''

  constructor(
    readonly kind: ProbeKind,
    private readonly probe: Probe,
    private readonly target: ProbeTarget,
    private readonly onResult: (result: boolean, message: string) => void,
    private readonly startedAtMs = Date.now(),
  ) {
    const t = probeTiming(probe)
    this.counter = new ProbeCounter(
      kind === 'readiness' ? t.successThreshold : 1,
      t.failureThreshold,
      initialProbeResult(kind),
    )
  }

  get result(): boolean | undefined {
    return this.counter.result
  }

  start(): void {
    const t = probeTiming(this.probe)
    const wait = Math.max(0, this.startedAtMs + t.initialDelayMs - Date.now())
    this.timer = setTimeout(() => void this.tick(), wait)
  }

  stop(): void {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
  }

  private async tick(): Promise<void> {
    if (this.stopped) return
    const t = probeTiming(this.probe)
    const began = Date.now()
    const outcome = await runProbe(this.probe, this.target, t.timeoutMs)
    if (this.stopped) return
    this.lastMessage = outcome.message
    if (this.counter.observe(outcome.ok))
      this.onResult(this.counter.result === true, outcome.message)
    // A startup probe is done once it succeeded; the others run for the container's life.
    if (this.kind === 'startup' && this.counter.result === true) return
    this.timer = setTimeout(() => void this.tick(), Math.max(0, t.periodMs - (Date.now() - began)))
  }
}
