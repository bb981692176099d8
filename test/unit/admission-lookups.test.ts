import { describe, expect, it } from 'vitest'
import type { Env } from '../../src/env'
import type { KubeObject } from '../../src/apimachinery/types'
import { cachedLookups } from '../../src/api/admission/lookups'

/** Stores that answer list() from fixed objects and count the reads. */
function fakeEnv(objects: Record<string, KubeObject[]>) {
  const reads: string[] = []
  const env = {
    KIND_STORE: {
      idFromName: (name: string) => name,
      get: (name: string) => ({
        list: async (_plural: string, opts: { namespace?: string }) => {
          reads.push(`${name}@${opts.namespace}`)
          return { ok: true, value: { items: (objects[name] ?? []).filter((o) => o.metadata.namespace === opts.namespace).map((o) => JSON.stringify(o)), resourceVersion: '1' } }
        },
      }),
    },
  } as unknown as Env
  return { env, reads }
}

const quota = (rv: string): KubeObject => ({ metadata: { name: 'q', namespace: 'ns', uid: 'u', resourceVersion: rv } })

describe("controllers' admission reads", () => {
  it('reuse a namespace read for the ttl, re-read when fresh is asked, and keep admission own quota writes', async () => {
    let now = 0
    const { env, reads } = fakeEnv({ 'core/resourcequotas': [quota('1')], 'core/limitranges': [] })
    const lookups = cachedLookups(env, 1000, () => now)
    expect(await lookups.quotas('ns')).toEqual([quota('1')])
    await lookups.quotas('ns')
    await lookups.limitRanges('ns')
    await lookups.limitRanges('ns')
    expect(reads).toEqual(['core/resourcequotas@ns', 'core/limitranges@ns'])
    lookups.quotaWritten(quota('2'))
    expect(await lookups.quotas('ns')).toEqual([quota('2')])
    await lookups.quotas('ns', true)
    expect(reads).toHaveLength(3)
    now = 1000
    await lookups.limitRanges('ns')
    expect(reads).toHaveLength(4)
  })
})
