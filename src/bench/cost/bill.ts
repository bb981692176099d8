/** The pricing arithmetic: metered usage → a month's bill at the list prices of prices.ts. */
import {
  DO_BILLED_GB,
  PRICES,
  SECONDS_PER_MONTH,
  WS_MESSAGES_PER_REQUEST,
  type PricedItem,
} from './prices'

/** What the meter counted over some period. */
export interface Metered {
  workerRequests: number
  /** Durable Object HTTP requests, RPC calls and alarms */
  doRequests: number
  /** incoming WebSocket messages to Durable Objects */
  wsMessages: number
  /** seconds objects were active, summed over objects */
  activeSeconds: number
  rowsRead: number
  /** SQL rows, KV keys written or deleted, and alarm writes */
  rowsWritten: number
  /** stored bytes at the end of the period (a level, not a flow) */
  storedBytes: number
}

/** Usage in the units each line of PRICES is billed in. */
export type Usage = Record<PricedItem, number>

export interface LineItem {
  item: PricedItem
  unit: string
  usage: number
  included: number
  billable: number
  usd: number
}

export interface Bill {
  items: LineItem[]
  usd: number
  /** the line that costs most, when any costs anything */
  dominant?: PricedItem
}

const BYTES_PER_GB = 1e9

export function usageOf(m: Metered): Usage {
  return {
    workerRequests: m.workerRequests,
    doRequests: m.doRequests + m.wsMessages / WS_MESSAGES_PER_REQUEST,
    doDuration: m.activeSeconds * DO_BILLED_GB,
    rowsRead: m.rowsRead,
    rowsWritten: m.rowsWritten,
    storage: m.storedBytes / BYTES_PER_GB,
  }
}

/** A period's usage extrapolated to a 30-day month; storage, a level, stays as it is. */
export function perMonth(u: Usage, seconds: number): Usage {
  if (!(seconds > 0)) throw new Error(`a period of ${seconds} s cannot be extrapolated`)
  const f = SECONDS_PER_MONTH / seconds
  return { ...scaleUsage(u, f), storage: u.storage }
}

/** Every line multiplied by `factor` (a cluster of another size, a count of pods). */
export function scaleUsage(u: Usage, factor: number): Usage {
  return Object.fromEntries(Object.entries(u).map(([k, v]) => [k, v * factor])) as Usage
}

/** One month's usage priced beyond the plan's included amounts (the plan's $5 minimum not added). */
export function monthlyBill(month: Usage): Bill {
  return priced(month, (item) => PRICES[item].included)
}

/**
 * Usage priced at the list rates with nothing included: what more work costs a cluster whose
 * always-on use already spends the included amounts.
 */
export function marginalBill(u: Usage): Bill {
  return priced(u, () => 0)
}

function priced(u: Usage, included: (item: PricedItem) => number): Bill {
  const items = (Object.keys(PRICES) as PricedItem[]).map((item): LineItem => {
    const p = PRICES[item]
    const billable = Math.max(0, u[item] - included(item))
    return {
      item,
      unit: p.unit,
      usage: u[item],
      included: included(item),
      billable,
      usd: (billable * p.usd) / p.per,
    }
  })
  const usd = items.reduce((n, i) => n + i.usd, 0)
  const top = [...items].sort((a, b) => b.usd - a.usd)[0]
  return { items, usd, ...(top && top.usd > 0 ? { dominant: top.item } : {}) }
}
