import type { HttpClient } from '../http-client'
import { progress } from '../progress'
import { median } from '../stats'
import { expectStatus } from './series'

export interface ListResult {
  /** Per call: request sent → body received and parsed. */
  callsMs: number[]
  medianMs: number
  items: number
  bytes: number
}

/** LIST of one resource across all namespaces as JSON, timed on the client including JSON.parse. */
export async function listAll(
  client: HttpClient,
  path: string,
  calls: number,
  expectItems: number,
): Promise<ListResult> {
  const callsMs: number[] = []
  let items = 0
  let bytes = 0
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now()
    const res = await client.request('GET', path)
    const list = JSON.parse(res.body) as { items?: unknown[] }
    const ms = performance.now() - t0
    expectStatus(res, 200)
    items = list.items?.length ?? 0
    bytes = Buffer.byteLength(res.body)
    if (items !== expectItems)
      throw new Error(`GET ${path} returned ${items} items, expected ${expectItems}`)
    callsMs.push(ms)
  }
  const result = { callsMs, medianMs: median(callsMs), items, bytes }
  progress(
    `  list ${items} objects (${(bytes / 1e6).toFixed(1)} MB): ${callsMs.map((ms) => ms.toFixed(0)).join(', ')} ms`,
  )
  return result
}
