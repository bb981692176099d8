import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Bill } from '../cost/bill'
import { PLAN_BASE_USD_PER_MONTH, PRICE_SOURCES, PRICES_READ_ON } from '../cost/prices'
import type { CostResult } from '../scenarios/cost'
import { costFigures, COST_NODES, idleMonthlyBill, podStartsBill } from './cost-figures'
import { goalText, num } from './format'

/** `npm run bench -- --cost`: writes cost.json into `dir` (the figures, both bills and what was counted) and prints them. */
export async function writeCostReport(dir: string, result: CostResult): Promise<string> {
  await mkdir(dir, { recursive: true })
  const path = join(dir, 'cost.json')
  const figures = costFigures(result)
  const idle = idleMonthlyBill(result)
  const starts = podStartsBill(result)
  await writeFile(
    path,
    JSON.stringify(
      {
        prices: { read_on: PRICES_READ_ON, sources: PRICE_SOURCES },
        figures,
        idle_bill: idle,
        pod_starts_bill: starts,
        measured: result,
      },
      null,
      2,
    ) + '\n',
  )
  const lines = [
    '',
    `cost: ${result.nodes} sim nodes, ${result.pods} replicas rolled out in ${num(result.rolloutSeconds)} s, ${num(result.windowSeconds)} s idle (prices read ${PRICES_READ_ON})`,
    '| key | goal | value | verdict |',
    '|---|---|---|---|',
    ...Object.entries(figures).map(
      ([k, f]) =>
        `| ${k} | ${goalText(f.goal)} | ${num(f.value)} ${f.unit}${f.at ? ` at ${f.at}` : ''} | ${f.verdict} |`,
    ),
    '',
    `idle, a 30-day month of ${COST_NODES} nodes (plus the plan's $${PLAN_BASE_USD_PER_MONTH}):`,
    ...billTable(idle),
    '',
    'per 1,000 pods started, at the list rates:',
    ...billTable(starts),
    '',
    'the idle window by object, costliest first (requests, rows read, rows written, active s; calls by entry point):',
    ...result.busiestIdle.map(
      (l) =>
        `  ${l.object}: ${num(l.requests)}, ${num(l.rowsRead)}, ${num(l.rowsWritten)}, ${num(l.activeSeconds)}; ${l.calls}`,
    ),
  ]
  console.log(lines.join('\n'))
  return path
}

function billTable(b: Bill): string[] {
  return [
    '| item | usage | included | billable | USD |',
    '|---|---|---|---|---|',
    ...b.items.map(
      (i) =>
        `| ${i.item} | ${num(i.usage)} ${i.unit} | ${num(i.included)} | ${num(i.billable)} | ${i.usd.toFixed(2)} |`,
    ),
    `| total${b.dominant ? ` (mostly ${b.dominant})` : ''} | | | | ${b.usd.toFixed(2)} |`,
  ]
}
