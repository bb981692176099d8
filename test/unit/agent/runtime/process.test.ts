import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import { ProcessRuntime } from '../../../../src/agent/runtime/process'
import type { ContainerState } from '../../../../src/agent/runtime/types'
import type { Json } from '../../../../src/apimachinery/json-value'
import { newPod, waitFor } from '../../../helpers'

const BACKOFF = { baseMs: 100, maxMs: 400, resetAfterMs: 600_000 }
let seq = 0
let dir: string
const runtimes: ProcessRuntime[] = []

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'edgeplane-process-runtime-'))
})
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((r) => r.shutdown()))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

function runtime(): ProcessRuntime {
  const r = new ProcessRuntime({
    nodeIP: '192.0.2.10',
    backoff: BACKOFF,
    shutdownGraceSeconds: 1,
    podsDir: join(dir, 'pods'),
  })
  runtimes.push(r)
  return r
}

/** A pod of its own name and uid for each test, with these containers (image `x` unless named). */
function runtimePod(
  containers: Record<string, unknown>[],
  opts: {
    restartPolicy?: string
    init?: Record<string, unknown>[]
    status?: Json
    grace?: number
  } = {},
): KubeObject {
  const spec: Json = {
    restartPolicy: opts.restartPolicy ?? 'Always',
    terminationGracePeriodSeconds: opts.grace ?? 30,
  }
  if (opts.init) spec.initContainers = opts.init.map((c) => ({ image: 'x', ...c }))
  return newPod(`p${++seq}`, {
    uid: `uid-${seq}`,
    containers: containers.map((c) => ({ image: 'x', ...c })),
    spec,
    status: opts.status ?? { phase: 'Pending' },
  })
}

const envFor = (p: KubeObject, env: Record<string, string> = {}) =>
  Object.fromEntries(
    [
      ...((p.spec as { initContainers?: { name: string }[] }).initContainers ?? []),
      ...(p.spec as { containers: { name: string }[] }).containers,
    ].map((c) => [c.name, env]),
  )

const stateOf = (r: ProcessRuntime, uid: string, name = 'main'): ContainerState | undefined =>
  r.status(uid)?.find((c) => c.name === name)
const terminated = (s: ContainerState | undefined) =>
  s && 'terminated' in s.state ? s.state.terminated : undefined

async function text(iter: AsyncIterable<Uint8Array>): Promise<string> {
  let out = ''
  for await (const c of iter) out += Buffer.from(c).toString('utf8')
  return out
}

describe('ProcessRuntime', () => {
  it('runs command + args with the environment, $(VAR) expansion and working directory', async () => {
    const r = runtime()
    const p = runtimePod(
      [
        {
          name: 'main',
          command: ['sh', '-c'],
          args: ['echo "$GREETING from $(WHO) in $(pwd) as $HOSTNAME"'],
          workingDir: dir,
        },
      ],
      { restartPolicy: 'Never' },
    )
    await r.sync(p, envFor(p, { GREETING: 'hello', WHO: 'tests' }))
    const t = await waitFor(() => terminated(stateOf(r, p.metadata.uid!)), { what: 'exit' })
    expect(t).toMatchObject({ exitCode: 0, reason: 'Completed' })
    expect(await text(r.logs(p.metadata.uid!, { container: 'main' }))).toBe(
      `hello from tests in ${dir} as ${p.metadata.name}\n`,
    )
    expect(stateOf(r, p.metadata.uid!)!.containerID).toMatch(/^process:\/\/[0-9a-f]{32}$/)
    expect(r.podIP()).toBe('192.0.2.10')
  })

  it("starts a container with no workingDir in its pod's own directory, removed with the pod", async () => {
    const r = runtime()
    const p = runtimePod([{ name: 'main', command: ['sh', '-c', 'pwd; echo kept > note'] }], {
      restartPolicy: 'Never',
    })
    await r.sync(p, envFor(p))
    await waitFor(() => terminated(stateOf(r, p.metadata.uid!)), { what: 'exit' })
    const podDir = join(dir, 'pods', p.metadata.uid!)
    expect(await text(r.logs(p.metadata.uid!, { container: 'main' }))).toBe(`${podDir}\n`)
    expect((await stat(podDir)).mode & 0o777).toBe(0o700)
    expect(await readFile(join(podDir, 'note'), 'utf8')).toBe('kept\n')
    r.forget(p.metadata.uid!)
    await expect(stat(podDir)).rejects.toThrow(/ENOENT/)
  })

  it.runIf(process.getuid?.() === 0)(
    'runs a container as securityContext.runAsUser, in a directory of its own',
    async () => {
      await chmod(dir, 0o711)
      const r = runtime()
      const p = runtimePod(
        [
          {
            name: 'main',
            command: ['sh', '-c', 'id -u; id -g; cat ../../secret 2>&1 || true'],
            securityContext: { runAsUser: 65534 },
          },
        ],
        { restartPolicy: 'Never' },
      )
      await writeFile(join(dir, 'secret'), 'agent only\n', { mode: 0o600 })
      await r.sync(p, envFor(p))
      expect(
        terminated(
          await waitFor(
            () => terminated(stateOf(r, p.metadata.uid!)) && stateOf(r, p.metadata.uid!),
            { what: 'exit' },
          ),
        ),
      ).toMatchObject({ exitCode: 0 })
      const out = await text(r.logs(p.metadata.uid!, { container: 'main' }))
      expect(out.split('\n').slice(0, 2)).toEqual(['65534', '65534'])
      expect(out).toContain('Permission denied')
      expect((await stat(join(dir, 'pods', p.metadata.uid!))).uid).toBe(65534)
    },
  )

  it.runIf(process.getuid?.() === 0)(
    'says so when a runAsUser container could not reach its directory',
    async () => {
      await chmod(dir, 0o700)
      const r = runtime()
      const p = runtimePod([
        { name: 'main', command: ['true'], securityContext: { runAsUser: 65534 } },
      ])
      await r.sync(p, envFor(p))
      expect(stateOf(r, p.metadata.uid!)!.state).toEqual({
        waiting: {
          reason: 'CreateContainerConfigError',
          message: `the pod's directory ${join(dir, 'pods', p.metadata.uid!)} is out of reach of runAsUser 65534: ${dir} is mode 0700; give the node agent a --state-dir outside it`,
        },
      })
      await chmod(dir, 0o711)
    },
  )

  it('refuses runAsNonRoot when the container would run as root', async () => {
    const r = runtime()
    const p = runtimePod([
      { name: 'main', command: ['true'], securityContext: { runAsUser: 0, runAsNonRoot: true } },
    ])
    await r.sync(p, envFor(p))
    expect(stateOf(r, p.metadata.uid!)!.state).toEqual({
      waiting: {
        reason: 'CreateContainerConfigError',
        message: `container's runAsUser breaks non-root policy (pod: "${p.metadata.name}_default(${p.metadata.uid})", container: main)`,
      },
    })
  })

  const policies: { policy: string; code: number; restarts: boolean }[] = [
    { policy: 'Never', code: 3, restarts: false },
    { policy: 'OnFailure', code: 0, restarts: false },
    { policy: 'OnFailure', code: 2, restarts: true },
    { policy: 'Always', code: 0, restarts: true },
  ]
  for (const c of policies) {
    it(`restartPolicy ${c.policy}, exit ${c.code}: ${c.restarts ? 'restarts' : 'stays terminated'}`, async () => {
      const r = runtime()
      const p = runtimePod([{ name: 'main', command: ['sh', '-c', `exit ${c.code}`] }], {
        restartPolicy: c.policy,
      })
      await r.sync(p, envFor(p))
      if (c.restarts) {
        const s = await waitFor(
          () => {
            const s = stateOf(r, p.metadata.uid!)
            return s && s.restartCount >= 2 ? s : undefined
          },
          { what: 'two restarts' },
        )
        expect(s.lastState).toMatchObject({ terminated: { exitCode: c.code } })
      } else {
        expect(
          await waitFor(() => terminated(stateOf(r, p.metadata.uid!)), { what: 'exit' }),
        ).toMatchObject({ exitCode: c.code })
        await new Promise((res) => setTimeout(res, 300))
        expect(stateOf(r, p.metadata.uid!)!.restartCount).toBe(0)
      }
    })
  }

  it('holds restarts back with CrashLoopBackOff', async () => {
    const r = runtime()
    const p = runtimePod([{ name: 'main', command: ['sh', '-c', 'exit 1'] }])
    await r.sync(p, envFor(p))
    const waiting = await waitFor(
      () => {
        const s = stateOf(r, p.metadata.uid!)
        return s && 'waiting' in s.state && s.state.waiting.reason === 'CrashLoopBackOff'
          ? s
          : undefined
      },
      { what: 'CrashLoopBackOff' },
    )
    expect((waiting.state as { waiting: { message: string } }).waiting.message).toMatch(
      /^back-off 0s restarting failed container=main pod=p\d+_default\(uid-\d+\)$/,
    )
    expect(waiting.lastState).toMatchObject({ terminated: { exitCode: 1, reason: 'Error' } })
  })

  it('waits with CreateContainerConfigError without a command or with a config error, and starts once resolved', async () => {
    const r = runtime()
    const noCommand = runtimePod([{ name: 'main', image: 'nginx' }])
    await r.sync(noCommand, envFor(noCommand))
    expect(stateOf(r, noCommand.metadata.uid!)!.state).toEqual({
      waiting: {
        reason: 'CreateContainerConfigError',
        message:
          'container "main" has no command (image "nginx" is not run: this node runs processes, not images); set command (and args) to the program to run',
      },
    })

    const p = runtimePod([{ name: 'main', command: ['sleep', '30'] }])
    await r.sync(p, {}, { main: 'configmap "cfg" not found' })
    expect(stateOf(r, p.metadata.uid!)!.state).toEqual({
      waiting: { reason: 'CreateContainerConfigError', message: 'configmap "cfg" not found' },
    })
    await r.sync(p, envFor(p))
    expect('running' in stateOf(r, p.metadata.uid!)!.state).toBe(true)
  })

  it('reports a missing program as StartError', async () => {
    const r = runtime()
    const p = runtimePod([{ name: 'main', command: ['/definitely/not/here'] }], {
      restartPolicy: 'Never',
    })
    await r.sync(p, envFor(p))
    expect(
      await waitFor(() => terminated(stateOf(r, p.metadata.uid!)), { what: 'start error' }),
    ).toMatchObject({
      exitCode: 128,
      reason: 'StartError',
      message: 'exec: "/definitely/not/here": executable file not found in $PATH',
    })
  })

  it('stops gracefully with SIGTERM, and with SIGKILL after the grace period', async () => {
    const r = runtime()
    const marker = join(dir, 'terminated')
    const polite = runtimePod([
      {
        name: 'main',
        command: [
          'sh',
          '-c',
          `trap 'echo bye > ${marker}; exit 0' TERM; while true; do sleep 0.1; done`,
        ],
      },
    ])
    const stubborn = runtimePod([
      { name: 'main', command: ['sh', '-c', `trap '' TERM; while true; do sleep 0.1; done`] },
    ])
    await r.sync(polite, envFor(polite))
    await r.sync(stubborn, envFor(stubborn))
    await new Promise((res) => setTimeout(res, 300))

    const t0 = Date.now()
    await r.stop(polite.metadata.uid!, 10)
    expect(Date.now() - t0).toBeLessThan(3_000)
    expect(await readFile(marker, 'utf8')).toBe('bye\n')
    expect(terminated(stateOf(r, polite.metadata.uid!))).toMatchObject({ exitCode: 0 })

    const t1 = Date.now()
    await r.stop(stubborn.metadata.uid!, 1)
    expect(Date.now() - t1).toBeGreaterThanOrEqual(900)
    expect(terminated(stateOf(r, stubborn.metadata.uid!))).toMatchObject({
      exitCode: 137,
      reason: 'Error',
    })
    // Stopped pods are not restarted.
    await new Promise((res) => setTimeout(res, 300))
    expect(stateOf(r, stubborn.metadata.uid!)!.restartCount).toBe(0)
  })

  it('shortens a stop in progress when asked with a smaller grace period', async () => {
    const r = runtime()
    const p = runtimePod([
      { name: 'main', command: ['sh', '-c', `trap '' TERM; while true; do sleep 0.1; done`] },
    ])
    await r.sync(p, envFor(p))
    await new Promise((res) => setTimeout(res, 200))
    const t0 = Date.now()
    const slow = r.stop(p.metadata.uid!, 30)
    await new Promise((res) => setTimeout(res, 100))
    await r.stop(p.metadata.uid!, 0)
    await slow
    expect(Date.now() - t0).toBeLessThan(2_000)
  })

  it('keeps the previous instance log, follows the current one until it exits', async () => {
    const r = runtime()
    const counter = join(dir, 'runs')
    const p = runtimePod([
      {
        name: 'main',
        command: [
          'sh',
          '-c',
          `echo run >> ${counter}; echo "run $(wc -l < ${counter})"; sleep 0.3; exit 1`,
        ],
      },
    ])
    await r.sync(p, envFor(p))
    const uid = p.metadata.uid!
    await waitFor(() => (stateOf(r, uid)!.restartCount >= 1 ? true : undefined), {
      what: 'a restart',
    })
    expect(await text(r.logs(uid, { container: 'main', previous: true }))).toBe('run 1\n')
    await waitFor(() => 'running' in stateOf(r, uid)!.state, { what: 'the second instance to run' })
    const followed = await text(r.logs(uid, { container: 'main', follow: true, timestamps: true }))
    expect(followed).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z run 2\n$/)
    await expect(text(r.logs(uid, { container: 'nope' }))).rejects.toThrow(
      /container nope is not valid/,
    )
  })

  it('runs init containers in order before the app containers', async () => {
    const r = runtime()
    const order = join(dir, 'order')
    const p = runtimePod([{ name: 'main', command: ['sh', '-c', `echo main >> ${order}`] }], {
      restartPolicy: 'Never',
      init: [
        { name: 'first', command: ['sh', '-c', `sleep 0.2; echo first >> ${order}`] },
        { name: 'second', command: ['sh', '-c', `echo second >> ${order}`] },
      ],
    })
    await r.sync(p, envFor(p))
    expect(stateOf(r, p.metadata.uid!, 'main')!.state).toEqual({
      waiting: { reason: 'ContainerCreating' },
    })
    await waitFor(() => terminated(stateOf(r, p.metadata.uid!, 'main')), { what: 'main to finish' })
    expect(await readFile(order, 'utf8')).toBe('first\nsecond\nmain\n')
    expect(
      r
        .status(p.metadata.uid!)!
        .filter((s) => s.init)
        .map((s) => s.name),
    ).toEqual(['first', 'second'])
  })

  it('does not start app containers after an init container failed under Never', async () => {
    const r = runtime()
    const p = runtimePod([{ name: 'main', command: ['true'] }], {
      restartPolicy: 'Never',
      init: [{ name: 'init', command: ['sh', '-c', 'exit 4'] }],
    })
    await r.sync(p, envFor(p))
    await waitFor(() => terminated(stateOf(r, p.metadata.uid!, 'init')), { what: 'init to fail' })
    await new Promise((res) => setTimeout(res, 200))
    expect(stateOf(r, p.metadata.uid!, 'main')!.state).toEqual({
      waiting: { reason: 'ContainerCreating' },
    })
  })

  it('turns ready with its readiness probe and restarts on liveness failure', async () => {
    const r = runtime()
    const flag = join(dir, 'healthy')
    const p = runtimePod([
      {
        name: 'main',
        command: ['sh', '-c', `touch ${flag}; sleep 30`],
        readinessProbe: { exec: { command: ['test', '-e', flag] }, periodSeconds: 1 },
        livenessProbe: {
          exec: { command: ['test', '-e', flag] },
          periodSeconds: 1,
          failureThreshold: 1,
        },
      },
    ])
    await r.sync(p, envFor(p))
    const uid = p.metadata.uid!
    expect(stateOf(r, uid)!.ready).toBe(false)
    await waitFor(() => stateOf(r, uid)!.ready, { what: 'ready', timeoutMs: 4_000 })
    await rm(flag)
    const restarted = await waitFor(
      () => (stateOf(r, uid)!.restartCount >= 1 ? stateOf(r, uid) : undefined),
      { what: 'a liveness restart', timeoutMs: 6_000 },
    )
    expect(restarted!.lastState).toMatchObject({ terminated: { reason: 'Error' } })
  })

  it('runs exec in the container environment with stdin', async () => {
    const r = runtime()
    const p = runtimePod([{ name: 'main', command: ['sleep', '30'], workingDir: dir }])
    await r.sync(p, envFor(p, { SECRET: 'x1' }))
    let out = ''
    let err = ''
    const stdin = (async function* () {
      yield new TextEncoder().encode('from stdin')
    })()
    const code = await r.exec(
      p.metadata.uid!,
      'main',
      ['sh', '-c', 'echo "$SECRET $(pwd) $(cat)"; echo warn >&2; exit 5'],
      {
        stdin,
        stdout: (c) => (out += Buffer.from(c).toString()),
        stderr: (c) => (err += Buffer.from(c).toString()),
      },
    )
    expect({ code, out, err }).toEqual({ code: 5, out: `x1 ${dir} from stdin\n`, err: 'warn\n' })
    expect(
      await r.exec(p.metadata.uid!, 'main', ['no-such-binary-here'], {
        stdout: () => {},
        stderr: () => {},
      }),
    ).toBe(127)
  })

  it('continues the history of a container a previous agent ran', async () => {
    const r = runtime()
    const p = runtimePod([{ name: 'main', command: ['sleep', '30'] }], {
      status: {
        phase: 'Running',
        containerStatuses: [
          {
            name: 'main',
            state: { running: { startedAt: '2026-01-01T00:00:00Z' } },
            lastState: {},
            restartCount: 2,
            ready: true,
          },
        ],
      },
    })
    await r.sync(p, envFor(p))
    const s = stateOf(r, p.metadata.uid!)!
    expect(s.restartCount).toBe(3)
    expect('running' in s.state).toBe(true)
    expect(s.lastState).toMatchObject({
      terminated: { exitCode: 137, reason: 'ContainerStatusUnknown' },
    })
  })

  it('leaves a finished Never pod finished when adopted', async () => {
    const r = runtime()
    const p = runtimePod([{ name: 'main', command: ['sleep', '30'] }], {
      restartPolicy: 'Never',
      status: {
        phase: 'Running',
        containerStatuses: [
          {
            name: 'main',
            state: { running: { startedAt: '2026-01-01T00:00:00Z' } },
            lastState: {},
            restartCount: 0,
            ready: true,
          },
        ],
      },
    })
    await r.sync(p, envFor(p))
    expect(terminated(stateOf(r, p.metadata.uid!))).toMatchObject({
      exitCode: 137,
      reason: 'ContainerStatusUnknown',
    })
  })

  it('announces every state change', async () => {
    const r = runtime()
    const seen: string[] = []
    r.onChange((uid) => seen.push(uid))
    const p = runtimePod([{ name: 'main', command: ['true'] }], { restartPolicy: 'Never' })
    await r.sync(p, envFor(p))
    await waitFor(() => terminated(stateOf(r, p.metadata.uid!)), { what: 'exit' })
    expect(seen.length).toBeGreaterThanOrEqual(2)
    expect(new Set(seen)).toEqual(new Set([p.metadata.uid]))
    r.forget(p.metadata.uid!)
    expect(r.status(p.metadata.uid!)).toBeUndefined()
    expect(r.podUids()).not.toContain(p.metadata.uid)
  })
})
