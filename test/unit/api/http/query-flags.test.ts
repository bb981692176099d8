import { describe, it, expect } from 'vitest'
import { queryFlag } from '../../../../src/api/http/query'
import { logOptions, type Pod } from '../../../../src/api/pods/logs'
import { attributesOf } from '../../../../src/api/authorization/attributes'
import { withApplyOptions } from '../../../../src/api/http/apply-request'

const q = (s: string) => new URLSearchParams(s)

describe('boolean query parameters', () => {
  it('follow runtime.Convert_Slice_string_To_bool: only absence, 0 and false (any case) are false', () => {
    for (const v of ['1', 't', 'T', 'TRUE', 'true', 'True', 'yes', ''])
      expect(queryFlag(q(`watch=${v}`), 'watch'), v).toBe(true)
    for (const v of ['0', 'false', 'False', 'FALSE', 'fAlSe'])
      expect(queryFlag(q(`watch=${v}`), 'watch'), v).toBe(false)
    expect(queryFlag(q('other=1'), 'watch')).toBe(false)
    // the first value counts, as upstream reads a repeated parameter
    expect(queryFlag(q('watch=0&watch=1'), 'watch')).toBe(false)
  })

  it('make watch=True a watch for authorization too', () => {
    expect(
      attributesOf(new Request('https://x/api/v1/namespaces/a/configmaps?watch=True')).verb,
    ).toBe('watch')
    expect(
      attributesOf(new Request('https://x/api/v1/namespaces/a/configmaps?watch=False')).verb,
    ).toBe('list')
  })

  it('are read the same way by pod logs and apply', () => {
    const pod: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'c' }] },
    }
    expect(logOptions(q('follow=True&timestamps=1&previous=False'), pod)).toEqual({
      container: 'c',
      follow: true,
      timestamps: true,
    })
    const req = new Request('https://x/')
    expect(
      withApplyOptions(
        { dryRun: false, fieldValidation: 'Warn' },
        req,
        q('force=True&fieldManager=m'),
      ).force,
    ).toBe(true)
    expect(
      withApplyOptions({ dryRun: false, fieldValidation: 'Warn' }, req, q('force=0&fieldManager=m'))
        .force,
    ).toBe(false)
  })
})
