import { describe, expect, it } from 'vitest'
import { api } from './helpers'

// TokenRequest bodies as kube-apiserver decodes and validates them: a value of the wrong type is
// the decoder's 400, a duration out of range validation's 422; neither ever a 500.
const tokenPath = '/api/v1/namespaces/default/serviceaccounts/token-checks/token'
const request = (spec: unknown) => ({
  apiVersion: 'authentication.k8s.io/v1',
  kind: 'TokenRequest',
  spec,
})
const decodeError = (what: string, field: string, type: string) =>
  `TokenRequest in version "v1" cannot be handled as a TokenRequest: json: cannot unmarshal ${what} into Go struct field ${field} of type ${type}`
const seconds = 'TokenRequestSpec.spec.expirationSeconds'

describe('TokenRequest validation', () => {
  it.each([
    ['a string', { expirationSeconds: 'abc' }, decodeError('string', seconds, 'int64')],
    ['a fraction', { expirationSeconds: 600.5 }, decodeError('number 600.5', seconds, 'int64')],
    ['a boolean', { expirationSeconds: true }, decodeError('bool', seconds, 'int64')],
    ['an object', { expirationSeconds: { s: 1 } }, decodeError('object', seconds, 'int64')],
    [
      'audiences not a list',
      { audiences: 'api' },
      decodeError('string', 'TokenRequestSpec.spec.audiences', '[]string'),
    ],
    [
      'an audience not a string',
      { audiences: ['api', 7] },
      decodeError('number 7', 'TokenRequestSpec.spec.audiences', 'string'),
    ],
    [
      'a spec not an object',
      'soon',
      decodeError('string', 'TokenRequest.spec', 'v1.TokenRequestSpec'),
    ],
  ])('answers 400 for %s', async (_what, spec, message) => {
    await api('POST', '/api/v1/namespaces/default/serviceaccounts', {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'token-checks' },
    })
    const res = await api('POST', tokenPath, request(spec))
    expect(res.status).toBe(400)
    expect(res.json).toMatchObject({ kind: 'Status', reason: 'BadRequest', message })
  })

  it.each([
    [
      599,
      'spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes',
    ],
    [
      -1,
      'spec.expirationSeconds: Invalid value: -1: may not specify a duration less than 10 minutes',
    ],
    [
      2 ** 32 + 1,
      'spec.expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds',
    ],
  ])('answers 422 for %i seconds', async (value, message) => {
    await api('POST', '/api/v1/namespaces/default/serviceaccounts', {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'token-checks' },
    })
    const res = await api('POST', tokenPath, request({ expirationSeconds: value }))
    expect(res.status).toBe(422)
    expect(res.json).toMatchObject({
      reason: 'Invalid',
      message: `TokenRequest.authentication.k8s.io "" is invalid: ${message}`,
    })
    expect(res.json.details.causes).toEqual([
      expect.objectContaining({ field: 'spec.expirationSeconds', reason: 'FieldValueInvalid' }),
    ])
  })

  it('issues tokens at both ends of the range, and for a null duration the default hour', async () => {
    await api('POST', '/api/v1/namespaces/default/serviceaccounts', {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'token-checks' },
    })
    for (const [value, lifetime] of [
      [600, 600],
      [2 ** 32, 2 ** 32],
      [null, 3600],
    ] as const) {
      const res = await api(
        'POST',
        tokenPath,
        request({ expirationSeconds: value, audiences: ['api', null] }),
      )
      expect(res.status).toBe(201)
      const expires = Date.parse(res.json.status.expirationTimestamp)
      expect(Math.abs(expires - Date.now() - lifetime * 1000)).toBeLessThan(5000)
    }
  })
})
