import { createServer, type Server } from 'node:https'
import { writeFile, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import { selfSignedServer } from '../../../src/bench/scenarios/webhooks'
import { kubectlOn } from './kubectl'
import { stream, type Manifest } from './manifests'
import { startServer, type TestServer } from './server'

/**
 * A server with an admission webhook server beside it: `url` webhooks served here over https, the
 * certificate trusted by the Worker the way a deployed Worker trusts public CAs (here through
 * NODE_EXTRA_CA_CERTS). Namespace `webhooks` is labelled `webhooks=on`, which every `hook` selects;
 * namespace `quiet` is not.
 */

export interface Review {
  request: {
    uid: string
    operation: string
    name: string
    namespace?: string
    dryRun: boolean
    userInfo: { username: string }
    object: any
    oldObject: any
    resource: { resource: string }
  }
}

function answer(review: Review, response: Record<string, unknown>) {
  return JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    response: { uid: review.request.uid, ...response },
  })
}
const jsonPatch = (ops: unknown[]) => ({
  patchType: 'JSONPatch',
  patch: Buffer.from(JSON.stringify(ops)).toString('base64'),
})

/** The webhook server's answer: one path per behaviour. */
function handle(path: string, review: Review): string {
  const obj = review.request.object
  switch (path) {
    case '/validate':
      if (obj?.metadata?.labels?.deny === 'yes')
        return answer(review, {
          allowed: false,
          status: { code: 403, message: 'configmaps labelled deny=yes are refused' },
        })
      return answer(review, {
        allowed: true,
        warnings: ['checked by validate.webhook.example.com'],
      })
    case '/mutate':
      return answer(review, {
        allowed: true,
        ...jsonPatch(
          obj.metadata.labels
            ? [{ op: 'add', path: '/metadata/labels/mutated', value: 'true' }]
            : [{ op: 'add', path: '/metadata/labels', value: { mutated: 'true' } }],
        ),
      })
    case '/pods':
      return answer(review, {
        allowed: true,
        ...jsonPatch([
          {
            op: 'add',
            path: '/metadata/annotations',
            value: { 'webhook.example.com/seen-by': review.request.userInfo.username },
          },
        ]),
      })
    case '/deletes':
      return answer(
        review,
        obj === null && review.request.oldObject?.metadata?.labels?.keep === 'yes'
          ? { allowed: false, status: { message: 'kept' } }
          : { allowed: true },
      )
    default:
      return answer(review, { allowed: true })
  }
}

export function webhookConfig(
  kind: 'Validating' | 'Mutating',
  name: string,
  hooks: Record<string, unknown>[],
): Manifest {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: `${kind}WebhookConfiguration`,
    metadata: { name },
    webhooks: hooks,
  }
}

/** For beforeAll/afterAll: `start`, then the server, kubectl and webhook server are ready; `stop` ends them. */
export function webhookCluster() {
  let server: TestServer | undefined
  let hookServer: Server | undefined
  let hookUrl = ''
  let dir = ''
  let pems = { cert: '', key: '' }
  /** every AdmissionReview the webhook server was sent, in order */
  const seen: Review[] = []
  const { run, ok } = kubectlOn(() => cluster.server.kubeconfig)

  const cluster = {
    seen,
    run,
    ok,
    get server(): TestServer {
      if (!server) throw new Error('the webhook cluster has not started')
      return server
    },
    /** the webhook server's certificate and key, which name hooks.webhooks.svc */
    get cert() {
      return pems.cert
    },
    get key() {
      return pems.key
    },

    /** A webhook at `path` of the webhook server, for CREATE and UPDATE of `resources` in namespaces labelled webhooks=on. */
    hook(
      name: string,
      path: string,
      resources: string[],
      extra: Record<string, unknown> = {},
    ): Record<string, unknown> {
      return {
        name,
        clientConfig: { url: hookUrl + path },
        rules: [
          {
            operations: ['CREATE', 'UPDATE'],
            apiGroups: ['', 'apps'],
            apiVersions: ['v1'],
            resources,
          },
        ],
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
        namespaceSelector: { matchLabels: { webhooks: 'on' } },
        ...extra,
      }
    },

    /** kubectl create of a ConfigMap with labels, as YAML through apply's create path. */
    configMap(name: string, namespace: string, labels: Record<string, string> = {}) {
      return run(
        ['create', '-f', '-'],
        stream({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name, namespace, labels },
          data: { k: 'v' },
        }),
      )
    },

    async start(): Promise<void> {
      dir = await mkdtemp(join(tmpdir(), 'edgeplane-webhooks-'))
      pems = await selfSignedServer('webhook', ['hooks.webhooks.svc'])
      await writeFile(join(dir, 'ca.pem'), pems.cert)
      const listening = createServer(pems, (req, res) => {
        let body = ''
        req.on('data', (c: Buffer) => (body += c.toString()))
        req.on('end', () => {
          const path = new URL(req.url ?? '/', 'https://x').pathname
          const review = JSON.parse(body) as Review
          seen.push(review)
          if (path === '/slow') return void setTimeout(() => res.end(handle(path, review)), 3000)
          res.setHeader('Content-Type', 'application/json')
          res.end(handle(path, review))
        })
      })
      hookServer = listening
      await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve))
      hookUrl = `https://127.0.0.1:${(listening.address() as AddressInfo).port}`
      server = await startServer({ env: { NODE_EXTRA_CA_CERTS: join(dir, 'ca.pem') } })
      await ok(['create', 'namespace', 'webhooks'])
      await ok(['label', 'namespace', 'webhooks', 'webhooks=on'])
      await ok(['create', 'namespace', 'quiet'])
    },

    async stop(): Promise<void> {
      await server?.dispose()
      hookServer?.close()
      if (dir) await rm(dir, { recursive: true, force: true })
    },
  }
  return cluster
}
