import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../../src/bench/ports'
import { selfSignedServer } from '../../src/bench/scenarios/webhooks'
import { stream, type Manifest } from './helpers/manifests'
import { startNodeAgent, type AgentProcess } from './helpers/node-agent'
import { waitFor } from './helpers/wait'
import { webhookCluster, webhookConfig } from './helpers/webhook-cluster'

// Admission webhooks as kube-apiserver calls them: a `url` webhook served here over https (its
// certificate trusted by the Worker the way a deployed Worker trusts public CAs: here through
// NODE_EXTRA_CA_CERTS), and a `service` webhook in a pod, reached through its node's tunnel with
// the configuration's caBundle checked by the agent. Match conditions: admission-webhook-match-conditions.test.ts.

const NODE = 'e2e-webhook-node'
let agent: AgentProcess
const cluster = webhookCluster()
const { run, ok, seen, hook, configMap } = cluster

/** The same webhook as a pod serves it behind a Service: refuses configmaps labelled deny-svc=yes. */
const podWebhook = `
const https = require('https')
https.createServer({ cert: process.env.CERT, key: process.env.KEY }, (q, s) => {
  let body = ''
  q.on('data', (c) => (body += c))
  q.on('end', () => {
    const review = JSON.parse(body)
    const labels = (review.request.object && review.request.object.metadata.labels) || {}
    const response = labels['deny-svc'] === 'yes' ? { allowed: false, status: { message: 'refused by the in-cluster webhook at ' + q.url } } : { allowed: true }
    s.setHeader('Content-Type', 'application/json')
    s.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: review.request.uid, ...response } }))
  })
}).listen(Number(process.argv[1]), '127.0.0.1')`

beforeAll(cluster.start)

afterAll(async () => {
  await agent?.stop()
  await cluster.stop()
})

describe('webhook configurations', () => {
  it('are validated as upstream: https urls, sideEffects, timeouts', async () => {
    const bad = webhookConfig('Validating', 'bad', [
      {
        ...hook('bad.webhook.example.com', '/validate', ['configmaps'], { timeoutSeconds: 31 }),
        clientConfig: { url: 'http://127.0.0.1:1/x' },
      },
      { ...hook('short.example', '/validate', ['configmaps']), sideEffects: 'Some' },
    ])
    const res = await run(['create', '-f', '-'], stream(bad))
    expect(res.code).not.toBe(0)
    expect(res.stderr).toContain('The ValidatingWebhookConfiguration "bad" is invalid')
    expect(res.stderr).toContain(
      `webhooks[0].clientConfig.url: Invalid value: "http://127.0.0.1:1/x": 'https' is the only allowed URL scheme`,
    )
    expect(res.stderr).toContain(
      'webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds',
    )
    expect(res.stderr).toContain(
      'webhooks[1].name: Invalid value: "short.example": should be a domain with at least three segments separated by dots',
    )
    expect(res.stderr).toContain('webhooks[1].sideEffects: Unsupported value: "Some"')
    expect((await run(['get', 'validatingwebhookconfigurations', 'bad'])).code).not.toBe(0)
  })

  it('get defaults and a Table with the number of webhooks', async () => {
    await ok(
      ['apply', '-f', '-'],
      stream(
        webhookConfig('Validating', 'listed', [
          hook('one.webhook.example.com', '/allow', ['secrets']),
          hook('two.webhook.example.com', '/allow', ['secrets']),
        ]),
      ),
    )
    const table = await ok(['get', 'validatingwebhookconfigurations', 'listed'])
    expect(table.stdout).toMatch(/NAME\s+WEBHOOKS\s+AGE\nlisted\s+2\s+/)
    const stored = JSON.parse(
      (await ok(['get', 'validatingwebhookconfiguration', 'listed', '-o', 'json'])).stdout,
    )
    expect(stored.webhooks[0]).toMatchObject({
      failurePolicy: 'Fail',
      matchPolicy: 'Equivalent',
      timeoutSeconds: 10,
      objectSelector: {},
      rules: [{ scope: '*' }],
    })
    await ok(['delete', 'validatingwebhookconfiguration', 'listed'])
  })
})

describe('validating webhooks', () => {
  beforeAll(async () => {
    await ok(
      ['apply', '-f', '-'],
      stream(
        webhookConfig('Validating', 'configmaps', [
          hook('validate.webhook.example.com', '/validate', ['configmaps']),
        ]),
      ),
    )
  })
  afterAll(async () => {
    await run(['delete', 'validatingwebhookconfiguration', 'configmaps'])
  })

  it('refuse an object with the webhook message, and nothing is stored', async () => {
    const res = await waitFor(
      async () => {
        const r = await configMap('refused', 'webhooks', { deny: 'yes' })
        return r.code !== 0 ? r : undefined
      },
      { what: 'the webhook configuration to take effect', timeoutMs: 10_000, intervalMs: 300 },
    )
    expect(res.stderr).toContain(
      'error when creating "STDIN": admission webhook "validate.webhook.example.com" denied the request: configmaps labelled deny=yes are refused',
    )
    expect((await run(['get', 'configmap', 'refused', '-n', 'webhooks'])).stderr).toContain(
      'NotFound',
    )
  })

  it('allow others, passing their warnings on, and see who asked and what would be stored', async () => {
    const res = await configMap('allowed', 'webhooks', { app: 'x' })
    expect(res.code, res.stderr).toBe(0)
    expect(res.stderr).toContain('Warning: checked by validate.webhook.example.com')
    const review = seen.filter((r) => r.request.name === 'allowed').at(-1)!
    expect(review.request).toMatchObject({
      operation: 'CREATE',
      namespace: 'webhooks',
      dryRun: false,
      userInfo: { username: 'kubernetes-admin' },
      resource: { resource: 'configmaps' },
    })
    expect(review.request.object.metadata.uid).toBeTruthy()
    expect(review.request.object.metadata.creationTimestamp).toBeTruthy()
  })

  it('see updates with the old object, and refuse them', async () => {
    const res = await run(['label', 'configmap', 'allowed', '-n', 'webhooks', 'deny=yes'])
    expect(res.code).not.toBe(0)
    expect(res.stderr).toContain('denied the request: configmaps labelled deny=yes are refused')
    const review = seen.filter((r) => r.request.name === 'allowed').at(-1)!
    expect(review.request.operation).toBe('UPDATE')
    expect(review.request.oldObject.metadata.labels).toEqual({ app: 'x' })
    expect(
      (
        await ok([
          'get',
          'configmap',
          'allowed',
          '-n',
          'webhooks',
          '-o',
          'jsonpath={.metadata.labels}',
        ])
      ).stdout,
    ).toBe('{"app":"x"}')
  })

  it('skip namespaces their namespaceSelector leaves out', async () => {
    const before = seen.length
    const res = await configMap('unchecked', 'quiet', { deny: 'yes' })
    expect(res.code, res.stderr).toBe(0)
    expect(seen.length).toBe(before)
  })

  it('are called on server-side dry runs, with dryRun set', async () => {
    const res = await run([
      'create',
      'configmap',
      'trial',
      '-n',
      'webhooks',
      '--dry-run=server',
      '--from-literal=a=b',
    ])
    expect(res.code, res.stderr).toBe(0)
    expect(seen.filter((r) => r.request.name === 'trial').at(-1)!.request.dryRun).toBe(true)
    expect((await run(['get', 'configmap', 'trial', '-n', 'webhooks'])).code).not.toBe(0)
  })
})

describe('failure policy and timeouts', () => {
  afterAll(async () => {
    await run(['delete', 'validatingwebhookconfiguration', 'unreachable'])
  })

  it('Fail refuses the write when the webhook cannot be called; Ignore lets it through', async () => {
    const closed = await freePort()
    const unreachable = (policy: string) =>
      webhookConfig('Validating', 'unreachable', [
        {
          ...hook('down.webhook.example.com', '', ['secrets'], { failurePolicy: policy }),
          clientConfig: { url: `https://127.0.0.1:${closed}/down` },
        },
      ])
    await ok(['apply', '-f', '-'], stream(unreachable('Fail')))
    const refused = await waitFor(
      async () => {
        const r = await run([
          'create',
          'secret',
          'generic',
          's1',
          '-n',
          'webhooks',
          '--from-literal=a=b',
        ])
        return r.code !== 0 ? r : undefined
      },
      { what: 'the webhook configuration to take effect', timeoutMs: 10_000, intervalMs: 300 },
    )
    expect(refused.stderr).toContain(
      `Internal error occurred: failed calling webhook "down.webhook.example.com": failed to call webhook: Post "https://127.0.0.1:${closed}/down?timeout=10s"`,
    )
    await ok(['apply', '-f', '-'], stream(unreachable('Ignore')))
    await waitFor(
      async () =>
        (await run(['create', 'secret', 'generic', 's1', '-n', 'webhooks', '--from-literal=a=b']))
          .code === 0,
      {
        what: 'the Ignore policy to let the secret through',
        timeoutMs: 10_000,
        intervalMs: 300,
      },
    )
  })

  it('a webhook slower than timeoutSeconds fails the call', async () => {
    await ok(
      ['apply', '-f', '-'],
      stream(
        webhookConfig('Validating', 'unreachable', [
          hook('slow.webhook.example.com', '/slow', ['secrets'], { timeoutSeconds: 1 }),
        ]),
      ),
    )
    const refused = await waitFor(
      async () => {
        const r = await run([
          'create',
          'secret',
          'generic',
          's2',
          '-n',
          'webhooks',
          '--from-literal=a=b',
        ])
        return r.code !== 0 ? r : undefined
      },
      { what: 'the slow webhook to be called', timeoutMs: 15_000, intervalMs: 300 },
    )
    expect(refused.stderr).toContain('failed calling webhook "slow.webhook.example.com"')
    expect(refused.stderr).toContain('context deadline exceeded')
  })
})

describe('mutating webhooks', () => {
  afterAll(async () => {
    await run(['delete', 'mutatingwebhookconfiguration', 'labels', 'pods'])
  })

  it('patch the object before it is stored', async () => {
    await ok(
      ['apply', '-f', '-'],
      stream(
        webhookConfig('Mutating', 'labels', [
          hook('mutate.webhook.example.com', '/mutate', ['configmaps']),
        ]),
      ),
    )
    const labels = await waitFor(
      async () => {
        await run(['delete', 'configmap', 'patched', '-n', 'webhooks', '--ignore-not-found'])
        await configMap('patched', 'webhooks', { app: 'y' })
        const got = JSON.parse(
          (
            await ok([
              'get',
              'configmap',
              'patched',
              '-n',
              'webhooks',
              '-o',
              'jsonpath={.metadata.labels}',
            ])
          ).stdout || '{}',
        )
        return got.mutated ? got : undefined
      },
      { what: 'the mutating webhook to label the configmap', timeoutMs: 10_000, intervalMs: 300 },
    )
    expect(labels).toEqual({ app: 'y', mutated: 'true' })
  })

  it('see the pods controllers create, made as the controller', async () => {
    await ok(
      ['apply', '-f', '-'],
      stream(
        webhookConfig('Mutating', 'pods', [hook('pods.webhook.example.com', '/pods', ['pods'])]),
      ),
    )
    // The controllers' isolate sees a new configuration within a second.
    await new Promise((r) => setTimeout(r, 1500))
    await ok(['create', 'deployment', 'web', '-n', 'webhooks', '--image=busybox', '--replicas=2'])
    const seenBy = await waitFor(
      async () => {
        const out = (
          await ok([
            'get',
            'pods',
            '-n',
            'webhooks',
            '-l',
            'app=web',
            '-o',
            "jsonpath={range .items[*]}{.metadata.annotations.webhook\\.example\\.com/seen-by}{'\\n'}{end}",
          ])
        ).stdout
          .trim()
          .split('\n')
          .filter(Boolean)
        return out.length === 2 ? out : undefined
      },
      {
        what: "the deployment's pods, annotated by the webhook",
        timeoutMs: 30_000,
        intervalMs: 500,
      },
    )
    expect(seenBy).toEqual([
      'system:serviceaccount:kube-system:replicaset-controller',
      'system:serviceaccount:kube-system:replicaset-controller',
    ])
  })
})

describe('deletes', () => {
  it('are refused by a validating webhook shown the old object', async () => {
    const config = webhookConfig('Validating', 'deletes', [
      {
        ...hook('deletes.webhook.example.com', '/deletes', ['configmaps']),
        rules: [
          {
            operations: ['DELETE'],
            apiGroups: [''],
            apiVersions: ['v1'],
            resources: ['configmaps'],
          },
        ],
      },
    ])
    await ok(['apply', '-f', '-'], stream(config))
    await configMap('kept', 'webhooks', { keep: 'yes' })
    const res = await waitFor(
      async () => {
        const r = await run(['delete', 'configmap', 'kept', '-n', 'webhooks'])
        return r.code !== 0 ? r : undefined
      },
      { what: 'the delete webhook to take effect', timeoutMs: 10_000, intervalMs: 300 },
    )
    expect(res.stderr).toContain(
      'admission webhook "deletes.webhook.example.com" denied the request: kept',
    )
    expect((await run(['get', 'configmap', 'kept', '-n', 'webhooks'])).code).toBe(0)

    // A deletecollection admits each object it deletes.
    await configMap('gone', 'webhooks', { batch: 'one' })
    const collection = (selector: string) =>
      cluster.server.request(
        `/api/v1/namespaces/webhooks/configmaps?labelSelector=${encodeURIComponent(selector)}`,
        { method: 'DELETE', token: cluster.server.token },
      )
    const refused = await collection('keep=yes')
    expect(refused.status).toBe(400)
    expect(JSON.parse(refused.body).message).toBe(
      'admission webhook "deletes.webhook.example.com" denied the request: kept',
    )
    expect((await run(['get', 'configmap', 'kept', '-n', 'webhooks'])).code).toBe(0)
    const deleted = await collection('batch=one')
    expect(deleted.status, deleted.body).toBe(200)
    expect(
      JSON.parse(deleted.body).items.map((o: { metadata: { name: string } }) => o.metadata.name),
    ).toEqual(['gone'])
    expect((await run(['get', 'configmap', 'gone', '-n', 'webhooks'])).code).not.toBe(0)
    await ok(['delete', 'validatingwebhookconfiguration', 'deletes'])
  })
})

describe('service webhooks', () => {
  it('reach a pod behind a Service through its node, checking the certificate against caBundle', async () => {
    agent = startNodeAgent(cluster.server.kubeconfig, NODE)
    const port = await freePort()
    const pod: Manifest = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'hooks', namespace: 'quiet', labels: { app: 'hooks' } },
      spec: {
        nodeName: NODE,
        containers: [
          {
            name: 'hooks',
            image: 'node',
            command: [process.execPath, '-e', podWebhook, String(port)],
            env: [
              { name: 'CERT', value: cluster.cert },
              { name: 'KEY', value: cluster.key },
            ],
          },
        ],
      },
    }
    // The certificate names hooks.webhooks.svc: the Service is `hooks` in namespace `webhooks`, its endpoint the pod.
    const service: Manifest = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'hooks', namespace: 'webhooks' },
      spec: { selector: { app: 'hooks' }, ports: [{ port: 443, targetPort: port }] },
    }
    const inNamespace = { ...pod, metadata: { ...(pod.metadata as object), namespace: 'webhooks' } }
    await ok(['apply', '-f', '-'], stream(inNamespace, service))
    await waitFor(
      async () =>
        (
          await run([
            'get',
            'endpoints',
            'hooks',
            '-n',
            'webhooks',
            '-o',
            'jsonpath={.subsets[*].addresses[*].ip}',
          ])
        ).stdout.trim() !== '',
      {
        what: 'a ready endpoint for the webhook service',
        timeoutMs: 60_000,
        intervalMs: 300,
      },
    )
    const inCluster = (caBundle: string) =>
      webhookConfig('Validating', 'in-cluster', [
        {
          ...hook('svc.webhook.example.com', '', ['configmaps']),
          clientConfig: {
            service: { namespace: 'webhooks', name: 'hooks', path: '/check' },
            caBundle,
          },
        },
      ])
    await ok(['apply', '-f', '-'], stream(inCluster(Buffer.from(cluster.cert).toString('base64'))))
    const refused = await waitFor(
      async () => {
        const r = await configMap('svc-refused', 'webhooks', { 'deny-svc': 'yes' })
        return r.code !== 0 && r.stderr.includes('denied') ? r : undefined
      },
      { what: 'the in-cluster webhook to refuse', timeoutMs: 15_000, intervalMs: 500 },
    )
    expect(refused.stderr).toContain(
      'admission webhook "svc.webhook.example.com" denied the request: refused by the in-cluster webhook at /check?timeout=10s',
    )
    expect((await configMap('svc-allowed', 'webhooks')).code).toBe(0)

    // A caBundle that did not sign the pod's certificate: the call fails (failurePolicy Fail).
    const other = await selfSignedServer('other')
    await ok(['apply', '-f', '-'], stream(inCluster(Buffer.from(other.cert).toString('base64'))))
    const failed = await waitFor(
      async () => {
        const r = await configMap('svc-untrusted', 'webhooks')
        return r.code !== 0 ? r : undefined
      },
      { what: 'the untrusted certificate to fail the call', timeoutMs: 15_000, intervalMs: 500 },
    )
    expect(failed.stderr).toContain('failed calling webhook "svc.webhook.example.com"')
    await ok(['delete', 'validatingwebhookconfiguration', 'in-cluster'])
  })
})
