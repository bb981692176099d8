/**
 * How a webhook is reached: a `url` is fetched from the Worker (certificates are checked against
 * the platform's trust store), a `service` through the tunnel of a ready endpoint's node, where the
 * agent speaks TLS to the pod and checks its certificate against `caBundle` for the name
 * `<service>.<namespace>.svc`, as kube-apiserver does.
 */
import type { AdmissionBindings } from '../bindings'
import type { Webhook } from '../../apis/admissionregistration/webhook-configuration'
import { fetchFromEndpoints, serviceEndpoints } from '../../service-client/service-endpoints'
import { maxRequestBodyBytes } from '../../config'
import { readBodyText } from '../../service-client/body-limit'
import { countSubrequest } from '../../limits/strict'

export type WebhookAnswer = { ok: true; body: string } | { ok: false; error: string }

export async function callWebhook(
  env: AdmissionBindings,
  hook: Webhook,
  body: string,
): Promise<WebhookAnswer> {
  const timeoutSeconds = hook.timeoutSeconds ?? 10
  const { url, service } = hook.clientConfig
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json' }
  if (url !== undefined) {
    const target = new URL(url)
    target.searchParams.set('timeout', `${timeoutSeconds}s`)
    const where = `Post "${target.href}"`
    try {
      countSubrequest(`fetch ${target.host}`)
      const res = await fetch(target.href, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(timeoutSeconds * 1000),
      })
      return answerOf(res, where)
    } catch (e) {
      const timedOut = e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError')
      return {
        ok: false,
        error: `failed to call webhook: ${where}: ${timedOut ? 'context deadline exceeded' : e instanceof Error ? e.message : String(e)}`,
      }
    }
  }
  const svc = service!
  const path = `${svc.path ?? ''}?timeout=${timeoutSeconds}s`
  const where = `Post "https://${svc.name}.${svc.namespace}.svc:${svc.port ?? 443}${path}"`
  let targets
  try {
    targets = await serviceEndpoints(env, svc.namespace, svc.name, String(svc.port ?? 443))
  } catch (e) {
    return {
      ok: false,
      error: `failed to call webhook: ${where}: ${e instanceof Error ? e.message : String(e)}`,
    }
  }
  if (!targets.length)
    return {
      ok: false,
      error: `failed to call webhook: ${where}: no endpoints available for service "${svc.name}"`,
    }
  const request = new Request('https://webhook.invalid/', { method: 'POST', headers, body })
  const tls = {
    serverName: `${svc.name}.${svc.namespace}.svc`,
    ...(hook.clientConfig.caBundle ? { ca: atob(hook.clientConfig.caBundle) } : {}),
  }
  const result = await fetchFromEndpoints(env, targets, request, path || '/', {
    timeoutMs: timeoutSeconds * 1000,
    tls,
    host: `${svc.name}.${svc.namespace}.svc`,
  })
  if (!result.ok) return { ok: false, error: `failed to call webhook: ${where}: ${result.message}` }
  return answerOf(result.response, where)
}

async function answerOf(res: Response, where: string): Promise<WebhookAnswer> {
  let text: string
  try {
    text = await readBodyText(res)
  } catch {
    return {
      ok: false,
      error: `failed to call webhook: ${where}: the response is larger than ${maxRequestBodyBytes} bytes`,
    }
  }
  if (res.status < 200 || res.status > 299) {
    return {
      ok: false,
      error: `failed to call webhook: the server responded with status code ${res.status} to ${where}: ${text.slice(0, 1024)}`,
    }
  }
  return { ok: true, body: text }
}
