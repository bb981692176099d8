import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { stream } from './helpers/manifests'
import { waitFor } from './helpers/wait'
import { webhookCluster, webhookConfig } from './helpers/webhook-cluster'

// A webhook's matchConditions, CEL expressions on the request, decide whether it is called at all;
// one that errors meets the webhook's failurePolicy.

const cluster = webhookCluster()
const { run, ok, seen, hook, configMap } = cluster

beforeAll(cluster.start)
afterAll(cluster.stop)

describe('match conditions', () => {
  afterAll(async () => {
    await run(['delete', 'validatingwebhookconfiguration', 'conditions'])
  })
  const conditional = (failurePolicy: string, expression: string) =>
    webhookConfig('Validating', 'conditions', [
      hook('conditions.webhook.example.com', '/validate', ['configmaps'], {
        failurePolicy,
        matchConditions: [
          { name: 'checked-only', expression },
          { name: 'not-kubelet', expression: "!('system:nodes' in request.userInfo.groups)" },
        ],
      }),
    ])

  it('call the webhook only when all are true', async () => {
    await ok(
      ['apply', '-f', '-'],
      stream(conditional('Fail', "object.metadata.labels.?checked.orValue('') == 'yes'")),
    )
    let attempt = 0
    const refused = await waitFor(
      async () => {
        const r = await configMap(`checked-refused-${++attempt}`, 'webhooks', {
          checked: 'yes',
          deny: 'yes',
        })
        return r.code !== 0 ? r : undefined
      },
      { what: 'the webhook configuration to take effect', timeoutMs: 10_000, intervalMs: 300 },
    )
    expect(refused.stderr).toContain(
      'admission webhook "conditions.webhook.example.com" denied the request: configmaps labelled deny=yes are refused',
    )
    const before = seen.length
    const skipped = await configMap('unchecked-allowed', 'webhooks', { deny: 'yes' })
    expect(skipped.code, skipped.stderr).toBe(0)
    expect(seen.length).toBe(before)
  })

  it('meet failurePolicy when one errors: Fail refuses the write, Ignore skips the webhook', async () => {
    const erring = 'object.metadata.labels.tier == "front"'
    await ok(['apply', '-f', '-'], stream(conditional('Fail', erring)))
    let attempt = 0
    const refused = await waitFor(
      async () => {
        const r = await configMap(`no-tier-${++attempt}`, 'webhooks', { app: 'x' })
        return r.code !== 0 ? r : undefined
      },
      { what: 'the erring condition to take effect', timeoutMs: 10_000, intervalMs: 300 },
    )
    expect(refused.stderr).toContain(
      `configmaps "no-tier-${attempt}" is forbidden: expression '${erring}' resulted in error: no such key: tier`,
    )
    await ok(['apply', '-f', '-'], stream(conditional('Ignore', erring)))
    const before = seen.length
    await waitFor(
      async () =>
        (await configMap(`ignored-${++attempt}`, 'webhooks', { app: 'x', deny: 'yes' })).code === 0,
      { what: 'the Ignore policy to skip the webhook', timeoutMs: 10_000, intervalMs: 300 },
    )
    expect(seen.slice(before).some((r) => r.request.name.startsWith('ignored-'))).toBe(false)
  })

  it('are validated on create, as upstream', async () => {
    const res = await run(
      ['apply', '-f', '-'],
      stream(conditional('Fail', 'object.metadata.name.startsWith(')),
    )
    expect(res.code).not.toBe(0)
    expect(res.stderr).toContain(
      'webhooks[0].matchConditions[0].expression: Invalid value: "object.metadata.name.startsWith(": compilation failed: ERROR: <input>:',
    )
  })
})
