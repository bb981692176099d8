import { describe, expect, it } from 'vitest'
import {
  encodableStatus,
  failure,
  invalid,
  notFound,
  success,
} from '../../../src/apimachinery/status'
import type { Status } from '../../../src/apimachinery/types'

const wire = (s: Status) => JSON.stringify(encodableStatus(s))

describe('Status as kube-apiserver encodes it', () => {
  it('puts details before code and leaves an empty group out', () => {
    expect(wire(notFound('', 'pods', 'p'))).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \\"p\\" not found","reason":"NotFound","details":{"name":"p","kind":"pods"},"code":404}',
    )
  })

  it('orders each cause as reason, message, field, whatever order it was built in', () => {
    const status = invalid('apps', 'Deployment', 'd', [
      {
        field: 'spec.replicas',
        reason: 'FieldValueInvalid',
        message: 'Invalid value: -1: must be greater than or equal to 0',
      },
    ])
    expect(JSON.parse(wire(status)).details).toEqual({
      name: 'd',
      group: 'apps',
      kind: 'Deployment',
      causes: [
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: -1: must be greater than or equal to 0',
          field: 'spec.replicas',
        },
      ],
    })
    expect(Object.keys(JSON.parse(wire(status)).details.causes[0])).toEqual([
      'reason',
      'message',
      'field',
    ])
  })

  it('keeps details that are set but empty, and drops fields that are not set', () => {
    expect(
      wire(failure(404, 'NotFound', 'the server could not find the requested resource', {})),
    ).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server could not find the requested resource","reason":"NotFound","details":{},"code":404}',
    )
    const built = {
      code: 409,
      details: { kind: 'pods', group: '', name: '' },
      reason: 'Conflict',
      message: 'm',
      status: 'Failure',
      metadata: {},
      apiVersion: 'v1',
      kind: 'Status',
    } as Status
    expect(wire(built)).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"m","reason":"Conflict","details":{"kind":"pods"},"code":409}',
    )
  })

  it('a Success Status', () => {
    expect(wire(success({ name: 'a', group: '', kind: 'pods', uid: 'u' }))).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","details":{"name":"a","kind":"pods","uid":"u"},"code":200}',
    )
  })
})
