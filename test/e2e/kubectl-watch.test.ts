import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { kubectl, kubectlOn } from './helpers/kubectl'
import { startKubectl, type KubectlProcess } from './helpers/kubectl-stream'
import { configMap, deployment } from './helpers/manifests'
import { startServer, type TestServer } from './helpers/server'
import { parseTable } from './helpers/table'
import { sleep, waitFor } from './helpers/wait'

// Long-running kubectl commands (get -w, wait) observing changes made while they run. The tests
// touch objects of their own and mostly wait, so they run side by side.
describe.concurrent('kubectl watches', () => {
  let server: TestServer
  const running: KubectlProcess[] = []
  const { run, ok } = kubectlOn(() => server.kubeconfig)
  const start = (args: string[], timeoutMs = 30_000) => {
    const proc = startKubectl(args, { kubeconfig: server.kubeconfig, timeoutMs })
    running.push(proc)
    return proc
  }
  /**
   * The complete rows of a `--output-watch-events` stream, split on blanks (each row is printed
   * as it arrives, so alignment with the header is not guaranteed; no cell here holds a blank).
   */
  const rows = (text: string) =>
    text
      .split('\n')
      .slice(1, -1)
      .map((line) => line.trim().split(/\s+/))
  const events = (proc: KubectlProcess) =>
    rows(proc.stdout()).map((cells) => `${cells[0]} ${cells[1]}`)
  /** Asserts the process is still running after `ms`: it has not finished before the change it waits for. */
  const stillRunningAfter = async (proc: KubectlProcess, ms: number) => {
    await sleep(ms)
    if (proc.done()) {
      const res = await proc.exited
      throw new Error(
        `kubectl finished before the change it waits for (exit ${res.code}): ${res.stdout}${res.stderr}`,
      )
    }
  }

  beforeAll(async () => {
    server = await startServer()
  })

  afterAll(async () => {
    await Promise.all(running.map((p) => p.stop()))
    await server?.dispose()
  })

  it('get -w --output-watch-events shows ADDED, MODIFIED and DELETED for changes made while it runs', async () => {
    await ok(
      ['apply', '-f', '-'],
      JSON.stringify(configMap('seed', { labels: { suite: 'watch' }, data: { a: '1' } })),
    )
    const watch = start(['get', 'cm', '-l', 'suite=watch', '-w', '--output-watch-events'])
    // The listed object arrives first as ADDED: from then on the watch is in place.
    await waitFor(() => events(watch).includes('ADDED seed'), {
      what: 'the initial ADDED row of get -w',
      timeoutMs: 15_000,
    })

    await ok(
      ['apply', '-f', '-'],
      JSON.stringify(configMap('live', { labels: { suite: 'watch' }, data: { a: '1' } })),
    )
    await ok(['patch', 'cm', 'live', '--type=merge', '-p', '{"data":{"a":"2","b":"3"}}'])
    // A change outside the selector must not show up.
    await ok(
      ['apply', '-f', '-'],
      JSON.stringify(configMap('other', { labels: { suite: 'elsewhere' } })),
    )
    await ok(['delete', 'cm', 'live'])
    await waitFor(() => events(watch).includes('DELETED live'), {
      what: 'the DELETED row of get -w',
      timeoutMs: 15_000,
    })

    const res = await watch.stop()
    expect(res.stderr).toBe('')
    expect(res.stdout.split('\n')[0]!.split(/\s+/)).toEqual(['EVENT', 'NAME', 'DATA', 'AGE'])
    expect(rows(res.stdout).map((cells) => cells.slice(0, 3).join(' '))).toEqual([
      'ADDED seed 1',
      'ADDED live 1',
      'MODIFIED live 2',
      'DELETED live 2',
    ])
  })

  it('get -w ends cleanly at --request-timeout', async () => {
    await ok(['apply', '-f', '-'], JSON.stringify(configMap('timed', { data: { a: '1' } })))
    const started = Date.now()
    const res = await kubectl(['get', 'cm', 'timed', '-w', '--request-timeout=3s'], {
      kubeconfig: server.kubeconfig,
      timeoutMs: 15_000,
    })
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_500)
    expect(res).toMatchObject({ code: 0, stderr: '' })
    const table = parseTable(res.stdout)
    expect(table.headers).toEqual(['NAME', 'DATA', 'AGE'])
    expect(table.rows.map((r) => r.NAME)).toEqual(['timed'])
  })

  it('get -w on a deployment prints a row for a scale made while it runs', async () => {
    await ok(['apply', '-f', '-'], JSON.stringify(deployment('scaled', { replicas: 1 })))
    const watch = start(['get', 'deploy', 'scaled', '-w', '--output-watch-events'])
    await waitFor(() => events(watch).includes('ADDED scaled'), {
      what: 'the initial row of get deploy -w',
      timeoutMs: 15_000,
    })
    await ok(['scale', 'deploy', 'scaled', '--replicas=3'])
    // READY is ready/desired: the desired count follows the scale.
    const scaled = (text: string) =>
      rows(text).some(
        ([event, name, ready]) => event === 'MODIFIED' && name === 'scaled' && ready === '0/3',
      )
    await waitFor(() => scaled(watch.stdout()), {
      what: 'a MODIFIED row with READY 0/3 after scale',
      timeoutMs: 15_000,
    })
    const res = await watch.stop()
    expect(res.stdout.split('\n')[0]!.split(/\s+/)).toEqual([
      'EVENT',
      'NAME',
      'READY',
      'UP-TO-DATE',
      'AVAILABLE',
      'AGE',
    ])
    expect(rows(res.stdout)[0]!.slice(0, 3)).toEqual(['ADDED', 'scaled', '0/1'])
  })

  it('wait --for=jsonpath succeeds once a change makes the value match', async () => {
    await ok(['apply', '-f', '-'], JSON.stringify(configMap('x', { data: { a: '1' } })))
    const wait = start(['wait', '--for=jsonpath={.data.a}=2', 'cm/x', '--timeout=20s'])
    await stillRunningAfter(wait, 1_000)
    await ok(['patch', 'cm', 'x', '--type=merge', '-p', '{"data":{"a":"2"}}'])
    const res = await wait.finished('kubectl wait to see data.a=2')
    expect(res).toEqual({ code: 0, stdout: 'configmap/x condition met\n', stderr: '' })
  })

  it('wait --for=jsonpath times out with an error when the value never matches', async () => {
    await ok(['apply', '-f', '-'], JSON.stringify(configMap('y', { data: { a: '1' } })))
    const res = await run(['wait', '--for=jsonpath={.data.a}=3', 'cm/y', '--timeout=1s'])
    expect(res.code).toBe(1)
    expect(res.stderr.trim()).toBe('error: timed out waiting for the condition on configmaps/y')
  })

  it('wait --for=delete returns once the object is really gone', async () => {
    await ok(
      ['apply', '-f', '-'],
      JSON.stringify(configMap('doomed', { finalizers: ['example.com/hold'] })),
    )
    await ok(['delete', 'cm', 'doomed', '--wait=false'])
    const wait = start(['wait', '--for=delete', 'cm/doomed', '--timeout=20s'])
    // Terminating but held by its finalizer: not deleted yet.
    await stillRunningAfter(wait, 1_000)
    await ok(['patch', 'cm', 'doomed', '--type=merge', '-p', '{"metadata":{"finalizers":null}}'])
    const res = await wait.finished('kubectl wait to see the deletion')
    expect(res).toEqual({ code: 0, stdout: 'configmap/doomed condition met\n', stderr: '' })
    const after = await run(['get', 'cm', 'doomed'])
    expect(after.stderr.trim()).toBe('Error from server (NotFound): configmaps "doomed" not found')
  })

  it('wait --for=delete on a missing object succeeds at once', async () => {
    const started = Date.now()
    const res = await run(['wait', '--for=delete', 'cm/never-there', '--timeout=20s'])
    expect(res).toEqual({ code: 0, stdout: '', stderr: '' })
    expect(Date.now() - started).toBeLessThan(10_000)
  })
})
