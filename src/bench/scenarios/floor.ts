import { HttpClient } from '../http-client'
import { startFloor } from '../floor/server'
import type { BenchOptions } from '../options'
import { configMapJson, objectName } from '../payload'
import { progress } from '../progress'
import { expectStatus, measuredSeries, type SeriesResult } from './series'

/** One repetition against a fresh floor Worker: Worker → Durable Object SQLite inserts over RPC. */
export async function floorRep(o: BenchOptions, rep: number): Promise<{ insert: SeriesResult }> {
  progress(`rep ${rep}: floor Worker: starting`)
  const floor = await startFloor()
  const client = new HttpClient(floor.url, { ca: floor.ca, connections: o.concurrency })
  try {
    const insert = (prefix: string) => async (i: number) => {
      const name = objectName(prefix, i)
      expectStatus(await client.request('POST', '/insert', configMapJson(name, 'bench')), 201)
    }
    await measuredSeries('floor warm-up', [], { concurrency: o.concurrency, count: o.warmup, timeLimitMs: o.timeLimitMs, request: insert('warm') })
    const series = await measuredSeries(`floor insert c=${o.concurrency}`, floor.workerdPids(), {
      concurrency: o.concurrency,
      count: o.objects,
      timeLimitMs: o.timeLimitMs,
      request: insert('cm'),
    })
    return { insert: series }
  } finally {
    client.close()
    await floor.stop()
  }
}
