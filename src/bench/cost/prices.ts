/**
 * Cloudflare's list prices for what edgeplane uses: the Workers Paid plan (Standard usage model)
 * and SQLite-backed Durable Objects. Read on 2026-11-27 from
 *   https://developers.cloudflare.com/workers/platform/pricing/ (the plan, Worker requests), and
 *   https://developers.cloudflare.com/durable-objects/platform/pricing/ (requests, duration, rows, storage).
 * Included amounts are per account and month; a month here is 30 days.
 */
export const PRICES_READ_ON = '2026-11-27'
export const PRICE_SOURCES = [
  'https://developers.cloudflare.com/workers/platform/pricing/',
  'https://developers.cloudflare.com/durable-objects/platform/pricing/',
]

export interface Price {
  /** what is billed, in the unit the usage is counted in */
  unit: string
  /** included per month on the plan */
  included: number
  /** USD per `per` units past the included amount */
  usd: number
  per: number
}

/** The plan's monthly minimum, which includes the amounts below. */
export const PLAN_BASE_USD_PER_MONTH = 5

export const PRICES = {
  /** inbound requests to the Worker (a WebSocket upgrade is one; messages through it none; cron invocations counted as requests) */
  workerRequests: { unit: 'requests', included: 10_000_000, usd: 0.3, per: 1_000_000 },
  /** HTTP requests, RPC calls and alarms of Durable Objects, and incoming WebSocket messages at 20 to one */
  doRequests: { unit: 'requests', included: 1_000_000, usd: 0.15, per: 1_000_000 },
  /** wall time an object is active, billed at 128 MB whatever it uses: $12.50 per million GB-s */
  doDuration: { unit: 'GB-s', included: 400_000, usd: 12.5, per: 1_000_000 },
  rowsRead: { unit: 'rows', included: 25_000_000_000, usd: 0.001, per: 1_000_000 },
  /** setAlarm is billed as a row written, and so is a delete */
  rowsWritten: { unit: 'rows', included: 50_000_000, usd: 1, per: 1_000_000 },
  /** SQLite stored data: 5 GB-month included, then $0.20 per GB-month */
  storage: { unit: 'GB-month', included: 5, usd: 0.2, per: 1 },
} as const satisfies Record<string, Price>

export type PricedItem = keyof typeof PRICES

/** Incoming WebSocket messages billed as one Durable Object request. */
export const WS_MESSAGES_PER_REQUEST = 20
/** Memory every active Durable Object is billed at, in GB. */
export const DO_BILLED_GB = 128 / 1024
export const SECONDS_PER_MONTH = 30 * 24 * 3600
