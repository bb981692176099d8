import { describe, expect, it } from 'vitest'
import type { Env } from '../../../src/env'
import type { KubeObject } from '../../../src/apimachinery/types'
import { batchLookups } from '../../../src/admission/lookups'

/** Stores that answer list() from fixed objects and count the reads. */
function fakeEnv(objects: Record<string, KubeObject[]>) {
  const reads: string[] = []
  const env = {
    KIND_STORE: {
      idFromName: (name: string) => name,
      get: (name: string) => ({
        list: async (_plural: string, opts: { namespace?: string }) => {
          reads.push(`${name}@${opts.namespace}`)
          return {
            ok: true,
            value: {
              items: (objects[name] ?? [])
                .filter((o) => o.metadata.namespace === opts.namespace)
                .map((o) => JSON.stringify(o)),
              resourceVersion: '1',
            },
          }
        },
      }),
    },
  } as unknown as Env
  return { env, reads }
}

const quota = (rv: string): KubeObject => ({
  metadata: { name: 'q', namespace: 'ns', uid: 'u', resourceVersion: rv },
})

describe("a batch of controller creates' admission reads", () => {
  it('share one read per namespace, re-read when fresh is asked, and keep admission own quota writes', async () => {
    const { env, reads } = fakeEnv({ 'core/resourcequotas': [quota('1')], 'core/limitranges': [] })
    const lookups = batchLookups(env)
    // creates of one batch asking at once share the read
    expect(await Promise.all([lookups.quotas('ns'), lookups.quotas('ns')])).toEqual([
      [quota('1')],
      [quota('1')],
    ])
    await lookups.limitRanges('ns')
    await lookups.limitRanges('ns')
    await lookups.quotas('other')
    expect(reads).toEqual([
      'core/resourcequotas@ns',
      'core/limitranges@ns',
      'core/resourcequotas@other',
    ])
    lookups.quotaWritten(quota('2'))
    expect(await lookups.quotas('ns')).toEqual([quota('2')])
    expect(await lookups.quotas('ns', true)).toEqual([quota('1')])
    expect(reads).toHaveLength(4)
    // the next batch reads again
    await batchLookups(env).quotas('ns')
    expect(reads).toHaveLength(5)
  })
})
