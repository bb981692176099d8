import { HttpClient } from '../http-client'
import { etcdPutBody, startEtcd, type EtcdBinary } from '../etcd'
import type { BenchOptions } from '../options'
import { configMapJson, objectName } from '../payload'
import { progress } from '../progress'
import { expectStatus, measuredSeries, type SeriesResult } from './series'

/** One repetition against a fresh etcd: puts of the same 1 KiB bodies through the HTTP/JSON gateway. */
export async function etcdRep(
  bin: EtcdBinary,
  o: BenchOptions,
  rep: number,
): Promise<{ put: SeriesResult }> {
  progress(`rep ${rep}: etcd ${bin.version}: starting`)
  const etcd = await startEtcd(bin)
  const client = new HttpClient(etcd.url, { connections: o.concurrency })
  try {
    const put = (prefix: string) => async (i: number) => {
      const name = objectName(prefix, i)
      const res = await client.request(
        'POST',
        '/v3/kv/put',
        etcdPutBody(`/registry/configmaps/bench/${name}`, configMapJson(name, 'bench')),
      )
      expectStatus(res, 200)
    }
    await measuredSeries('etcd warm-up', [], {
      concurrency: o.concurrency,
      count: o.warmup,
      timeLimitMs: o.timeLimitMs,
      request: put('warm'),
    })
    const series = await measuredSeries(`etcd put c=${o.concurrency}`, [etcd.process.pid], {
      concurrency: o.concurrency,
      count: o.objects,
      timeLimitMs: o.timeLimitMs,
      request: put('cm'),
    })
    return { put: series }
  } finally {
    client.close()
    await etcd.stop()
  }
}
