import { ALL_KEYS, goalOf } from './keys'
import type { Figure } from './figure'
import type { Report } from './model'
import { goalText, num } from './format'

/** The report as a Markdown page: one table of every key, the latency percentiles, and the details. */
export function renderMarkdown(r: Report): string {
  const m = r.meta
  const etcd = m.etcd as { version?: string; skipped?: string }
  const lines = [
    `# edgeplane benchmark (${String(m.mode)})`,
    '',
    `${String(m.started_at)} · ${String(m.repetitions)} repetition(s) · ${num(m.objects_per_rep as number)} objects of 1 KiB per repetition · ` +
      `c=${String(m.concurrency)} · ${String(m.watchers)} watchers × ${String(m.watch_writes)} writes · ` +
      (etcd.version
        ? `etcd ${etcd.version} via its HTTP/JSON gateway`
        : `etcd not measured (${etcd.skipped ?? 'skipped'})`) +
      ` · ${String(m.cpus)} CPUs · load average ${String(m.loadavg_at_start)} at start, ${String(m.loadavg_at_end)} at end · node ${String(m.node)} · ${num(m.duration_s as number)} s`,
    '',
    'Every figure is timed by the client. Results are the median over repetitions with [min–max]; ratios are taken within each repetition.',
    ...workloadLine(m.workload),
    '',
    '| key | goal | result (median [min–max]) | ratio/verdict |',
    '|---|---|---|---|',
  ]
  for (const key of ALL_KEYS) {
    const f = r.results[key]
    if (f)
      lines.push(`| \`${key}\` | ${goalText(f.goal)} | ${resultText(f)} | ${verdictText(key, f)} |`)
  }
  lines.push(
    '',
    '## Latency percentiles (ms, medians over repetitions)',
    '',
    '| scenario | p50 | p90 | p99 | max |',
    '|---|---|---|---|---|',
  )
  for (const row of r.latency)
    lines.push(
      `| ${row.scenario} | ${num(row.p50)} | ${num(row.p90)} | ${num(row.p99)} | ${num(row.max)} |`,
    )
  lines.push('', '## Details', '')
  for (const key of ALL_KEYS) {
    const d = r.results[key]?.details
    if (!d) continue
    const parts = Object.entries(d).map(
      ([k, v]) =>
        `${k}: ${typeof v === 'object' ? JSON.stringify(v) : typeof v === 'number' ? num(v) : String(v)}`,
    )
    lines.push(`- \`${key}\` — ${parts.join('; ')}`)
  }
  lines.push('')
  return lines.join('\n')
}

export function resultText(f: Figure): string {
  if (f.value === null) return 'null'
  const unit = f.unit === 'ratio' ? '' : ` ${f.unit}`
  const at = f.at ? ` at ${f.at}` : ''
  if (f.aggregate === 'single' || f.reps.length < 2) return `${num(f.value)}${unit}${at}`
  const range = `[${num(f.min)}–${num(f.max)}]`
  return f.aggregate === 'max'
    ? `${num(f.value)}${unit} (highest; reps ${range})`
    : `${num(f.value)}${unit} ${range}${at}`
}

export function verdictText(key: string, f: Figure): string {
  if (f.verdict === 'pending') return `pending: ${f.pending}`
  if (f.verdict === 'not measured') return `not measured: ${f.skipped ?? 'no value'}`
  const goal = goalOf(key)
  if (goal && f.value !== null) return `${f.verdict} (${num(f.value / goal.target)}× goal)`
  return f.verdict
}

function workloadLine(w: unknown): string[] {
  if (typeof w !== 'object' || w === null) return []
  const s = w as Record<string, number>
  return [
    '',
    `Workload keys are measured once per run on simulated nodes (\`src/agent/cli.ts --runtime sim\`): ${num(s.nodes)} nodes, ${num(s.schedule_pods)} pods to schedule, ` +
      `a ${num(s.deploy_replicas)}-replica Deployment, ${num(s.replace_trials)} replace trials, ` +
      (s.idle_pods
        ? `a ${num(s.idle_pods)}-replica Deployment then ${num(s.idle_window_s)} s idle, `
        : '') +
      `${num(s.node_loss_pods)} pods on the lost node; "at …" marks sizes below the key's nominal one.`,
  ]
}
