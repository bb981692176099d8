import { HttpClient } from '../http-client'
import { startFloor } from '../floor/server'
import type { BenchOptions } from '../options'
import { configMapJson, objectName } from '../payload'
import { progress } from '../progress'
import { expectStatus, measuredSeries, type SeriesResult } from './series'

/** One repetition against a fresh floor Worker: Worker → Durable Object SQLite inserts over RPC, then reads of them. */
export async function floorRep(
  o: BenchOptions,
  rep: number,
): Promise<{ insert: SeriesResult; get: SeriesResult }> {
  progress(`rep ${rep}: floor Worker: starting`)
  const floor = await startFloor()
  const client = new HttpClient(floor.url, { ca: floor.ca, connections: o.concurrency })
  try {
    const insert = (prefix: string) => async (i: number) => {
      const name = objectName(prefix, i)
      expectStatus(await client.request('POST', '/insert', configMapJson(name, 'bench')), 201)
    }
    await measuredSeries('floor warm-up', [], {
      concurrency: o.concurrency,
      count: o.warmup,
      timeLimitMs: o.timeLimitMs,
      request: insert('warm'),
    })
    const series = await measuredSeries(`floor insert c=${o.concurrency}`, floor.workerdPids(), {
      concurrency: o.concurrency,
      count: o.objects,
      timeLimitMs: o.timeLimitMs,
      request: insert('cm'),
    })
    // Only the objects the insert series made: one cut short by its time bound made fewer.
    const get = async (i: number) =>
      expectStatus(
        await client.request('GET', `/get/${objectName('cm', i % Math.max(1, series.ok))}`),
        200,
      )
    const got = await measuredSeries(`floor get c=${o.concurrency}`, floor.workerdPids(), {
      concurrency: o.concurrency,
      count: o.objects,
      timeLimitMs: o.timeLimitMs,
      request: get,
    })
    return { insert: series, get: got }
  } finally {
    client.close()
    await floor.stop()
  }
}
