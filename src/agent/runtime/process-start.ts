/** Starting a container's process: its command, user, directory and environment checked, then spawned. */
import { randomBytes } from 'node:crypto'
import type { KubeObject } from '../../apimachinery/types'
import { formatTime } from '../../apimachinery/meta-time'
import { expandVars } from '../container-env'
import { startContainerProbes } from './container-probes'
import { DEFAULT_LOG_LIMIT_BYTES, LogBuffer } from './log-buffer'
import { PodDirs } from './pod-dirs'
import type { ProcessRuntimeOptions } from './process-options'
import type { Container, Instance, Pod } from './process-records'
import { spawnMain, type InstanceEnd } from './process-spawn'
import { signalGroup } from './process-group'
import { runAsFor } from './run-as'
import { podKey } from './types'

/** What starting a container needs of the runtime. */
export interface ProcessHost {
  opts: ProcessRuntimeOptions
  /** the agent's own user and group */
  agent: { uid: number; gid: number }
  dirs: PodDirs
  envOf(pod: KubeObject | undefined, c: Container): Record<string, string>
  changed(uid: string): void
  exited(rec: Pod, c: Container, instance: Instance, end: InstanceEnd): void
}

/** The container cannot start until its spec or environment changes. */
export function waitOnConfig(c: Container, message: string): void {
  c.state = { waiting: { reason: 'CreateContainerConfigError', message } }
}

/** Starts one container of the pod as a process group, and its probes. */
export function startProcess(host: ProcessHost, rec: Pod, c: Container): void {
  const command = c.spec.command ?? []
  if (command.length === 0) {
    const image = c.spec.image
      ? ` (image "${c.spec.image}" is not run: this node runs processes, not images)`
      : ''
    return waitOnConfig(
      c,
      `container "${c.name}" has no command${image}; set command (and args) to the program to run`,
    )
  }
  const runAs = runAsFor(rec.pod, c.spec, host.agent)
  if ('error' in runAs) return waitOnConfig(c, runAs.error)
  c.runAs = runAs
  const env = host.envOf(rec.pod, c)
  const argv = [...command, ...(c.spec.args ?? [])].map((a) => expandVars(a, c.env ?? {}))
  const cwd = c.spec.workingDir || host.dirs.dirOf(rec.uid, runAs)
  const blocked =
    runAs.uid === undefined || c.spec.workingDir ? undefined : PodDirs.unreachable(cwd, runAs.uid)
  if (blocked)
    return waitOnConfig(
      c,
      `the pod's directory ${cwd} is out of reach of runAsUser ${runAs.uid}: ${blocked}; give the node agent a --state-dir outside it`,
    )
  const id = randomBytes(16).toString('hex')
  const now = Date.now()

  if (c.everStarted) c.restartCount++
  c.everStarted = true
  if (c.logs) c.previousLogs = c.logs
  c.logs = new LogBuffer(host.opts.logLimitBytes ?? DEFAULT_LOG_LIMIT_BYTES)
  c.containerID = `process://${id}`
  c.ready = false
  c.started = false

  let markExited!: () => void
  const exited = new Promise<void>((resolve) => (markExited = resolve))
  const instance: Instance = {
    id,
    child: undefined,
    startedAtMs: now,
    exited,
    markExited,
    done: false,
  }
  c.instance = instance

  const started = spawnMain(argv, { cwd, env, ...runAs }, c.logs, (end) =>
    host.exited(rec, c, instance, end),
  )
  if ('failed' in started) {
    c.state = { running: { startedAt: formatTime(now) } }
    host.exited(rec, c, instance, started.failed)
    return
  }
  const child = started.child
  instance.child = child
  c.state = { running: { startedAt: formatTime(now) } }
  host.opts.log?.debug(`started ${podKey(rec.pod)} container ${c.name} (pid ${child.pid})`)
  startProbes(host, rec, c, instance)
}

function startProbes(host: ProcessHost, rec: Pod, c: Container, instance: Instance): void {
  const target = {
    host: host.opts.probeHost ?? '127.0.0.1',
    ports: Object.fromEntries(
      (c.spec.ports ?? []).filter((p) => p.name).map((p) => [p.name!, p.containerPort]),
    ),
    env: host.envOf(rec.pod, c),
    cwd: c.spec.workingDir || host.dirs.dirOf(rec.uid, c.runAs),
    ...c.runAs,
  }
  startContainerProbes(c, target, instance.startedAtMs, {
    current: () => c.instance === instance && !instance.done,
    changed: () => host.changed(rec.uid),
    failed: (kind, probe, message) => {
      host.opts.log?.info(
        `${podKey(rec.pod)} container ${c.name} failed its ${kind} probe and will be restarted: ${message}`,
      )
      killInstance(rec, instance, probe.terminationGracePeriodSeconds)
    },
  })
}

/** A probe decided the instance must go: SIGTERM, SIGKILL after the grace period. */
function killInstance(rec: Pod, instance: Instance, probeGrace: number | undefined): void {
  const grace =
    probeGrace ??
    (rec.pod.spec as { terminationGracePeriodSeconds?: number } | undefined)
      ?.terminationGracePeriodSeconds ??
    30
  signalGroup(instance.child, 'SIGTERM')
  const timer = setTimeout(() => signalGroup(instance.child, 'SIGKILL'), grace * 1000)
  void instance.exited.then(() => clearTimeout(timer))
}
