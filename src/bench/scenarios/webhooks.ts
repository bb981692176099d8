import { createServer } from 'node:https'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import type { HttpClient } from '../http-client'
import type { BenchOptions } from '../options'
import { configMapJson, objectName } from '../payload'
import { combined, ROUNDS, type CreateRate } from './rbac'
import { selfSignedCertificate } from '../../launcher/tls'
import { expectStatus, measuredSeries, type SeriesResult } from './series'

/** A validating webhook the bench serves itself: it allows everything, answering at once. */
export interface BenchWebhook {
  url: string
  /** its certificate, for NODE_EXTRA_CA_CERTS of the control plane (the Worker checks it) */
  caPath: string
  calls(): number
  close(): Promise<void>
}

/** A self-signed serving certificate (its own CA) for 127.0.0.1 and the given DNS names. */
export async function selfSignedServer(
  commonName: string,
  dnsNames: string[] = [],
): Promise<{ cert: string; key: string }> {
  const pems = await selfSignedCertificate({
    commonName,
    ips: ['127.0.0.1'],
    dnsNames,
    validDays: 30,
  })
  return { cert: pems.cert, key: pems.private }
}

export async function startBenchWebhook(): Promise<BenchWebhook> {
  const pems = await selfSignedServer('bench-webhook')
  const dir = await mkdtemp(join(tmpdir(), 'edgeplane-bench-webhook-'))
  const caPath = join(dir, 'ca.pem')
  await writeFile(caPath, pems.cert)
  let calls = 0
  const server = createServer({ cert: pems.cert, key: pems.key }, (req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString()))
    req.on('end', () => {
      calls++
      const uid = (JSON.parse(body) as { request: { uid: string } }).request.uid
      res.setHeader('Content-Type', 'application/json')
      res.end(
        JSON.stringify({
          apiVersion: 'admission.k8s.io/v1',
          kind: 'AdmissionReview',
          response: { uid, allowed: true },
        }),
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/validate`,
    caPath,
    calls: () => calls,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await rm(dir, { recursive: true, force: true })
    },
  }
}

export interface WebhookCreates {
  /** creates in a namespace the webhook's namespaceSelector leaves out */
  unselected: CreateRate
  /** creates each sent to the webhook */
  hooked: CreateRate
  calls: number
}

const HOOKED_NS = 'bench-hooked'
const PLAIN_NS = 'bench-unhooked'
const MAX_CREATES = 2_000

/**
 * The same configmap creates with a validating webhook configured for configmaps: in a namespace
 * its namespaceSelector selects (each create calls the webhook over https) and in one it leaves
 * out (what the webhook check costs every write), alternating series on one control plane.
 */
export async function webhookCreates(
  o: BenchOptions,
  admin: HttpClient,
  hook: BenchWebhook,
  serverPids: number[],
): Promise<WebhookCreates> {
  await admin.expectOk(
    'POST',
    '/api/v1/namespaces',
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: HOOKED_NS, labels: { 'bench-webhook': 'on' } },
    }),
  )
  await admin.expectOk(
    'POST',
    '/api/v1/namespaces',
    JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: PLAIN_NS } }),
  )
  const config = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'bench' },
    webhooks: [
      {
        name: 'bench.webhook.edgeplane.dev',
        clientConfig: { url: hook.url },
        rules: [
          {
            operations: ['CREATE'],
            apiGroups: [''],
            apiVersions: ['v1'],
            resources: ['configmaps'],
          },
        ],
        namespaceSelector: { matchLabels: { 'bench-webhook': 'on' } },
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
      },
    ],
  }
  await admin.expectOk(
    'POST',
    '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations',
    JSON.stringify(config),
  )
  const before = hook.calls()
  const count = Math.max(1, Math.floor(Math.min(o.objects, MAX_CREATES) / ROUNDS))
  const series = { concurrency: o.concurrency, timeLimitMs: o.timeLimitMs, count }
  const create = (ns: string, offset: number) => async (i: number) => {
    expectStatus(
      await admin.request(
        'POST',
        `/api/v1/namespaces/${ns}/configmaps`,
        configMapJson(objectName('hook', offset + i), ns),
      ),
      201,
    )
  }
  await measuredSeries('create warm-up with a webhook', [], {
    ...series,
    count: o.warmup,
    request: create(HOOKED_NS, 0),
  })
  const plain: SeriesResult[] = []
  const hooked: SeriesResult[] = []
  for (let round = 0; round < ROUNDS; round++) {
    const offset = o.warmup + round * count
    plain.push(
      await measuredSeries(
        `create, webhook not selecting c=${o.concurrency} (${round + 1}/${ROUNDS})`,
        serverPids,
        { ...series, request: create(PLAIN_NS, offset) },
      ),
    )
    hooked.push(
      await measuredSeries(
        `create, webhook called c=${o.concurrency} (${round + 1}/${ROUNDS})`,
        serverPids,
        { ...series, request: create(HOOKED_NS, offset) },
      ),
    )
  }
  return { unselected: combined(plain), hooked: combined(hooked), calls: hook.calls() - before }
}
