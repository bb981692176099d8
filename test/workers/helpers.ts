import { env, SELF } from 'cloudflare:test'
import { hostObjectName, hostOfController } from '../../src/controllers/hosts'
import { waitFor } from '../helpers'

export const token = 'workers-test-admin-token-0123456789abcdef'

/** Joins a node as the admin (`POST /agent/v1/nodes/<name>/credential`): the node's own bearer token. */
export async function joinNode(name: string): Promise<string> {
  const res = await api('POST', `/agent/v1/nodes/${encodeURIComponent(name)}/credential`)
  if (res.status !== 201)
    throw new Error(`joining ${name} answered ${res.status}: ${JSON.stringify(res.json)}`)
  return res.json.token as string
}

/** A request to the API server as a client with the admin token. */
export async function api(
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/json',
  headers: Record<string, string> = {},
): Promise<{ status: number; json: any; headers: Headers }> {
  const res = await SELF.fetch(`https://edgeplane.test${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body !== undefined ? { 'Content-Type': contentType } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await res.text()
  let json: any
  try {
    json = JSON.parse(text)
  } catch {
    json = text
  }
  return { status: res.status, json, headers: res.headers }
}

/** Creates the namespace `name` as the admin, expecting it did not exist. */
export async function makeNamespace(name: string): Promise<void> {
  const res = await api('POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name },
  })
  if (res.status !== 201) throw new Error(`creating namespace ${name} answered ${res.status}`)
}

export function configMap(
  name: string,
  data: Record<string, string> = { k: 'v' },
  labels?: Record<string, string>,
) {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, ...(labels ? { labels } : {}) },
    data,
  }
}

/** Opens a WebSocket watch and collects its events. */
export async function openWatch(path: string) {
  const res = await SELF.fetch(`https://edgeplane.test${path}`, {
    headers: { Authorization: `Bearer ${token}`, Upgrade: 'websocket' },
  })
  const ws = res.webSocket
  if (!ws) throw new Error(`watch upgrade failed with ${res.status}: ${await res.text()}`)
  const events: { type: string; object: any }[] = []
  let closed = false
  ws.accept()
  ws.addEventListener('message', (e) => {
    for (const line of String(e.data).split('\n')) if (line) events.push(JSON.parse(line))
  })
  ws.addEventListener('close', () => {
    closed = true
  })
  return {
    events,
    get closed() {
      return closed
    },
    close: () => ws.close(1000, 'done'),
    /** The events once at least `n` arrived (bounded by `timeoutMs`). */
    received(n: number, timeoutMs = 10_000) {
      return waitFor(() => events.length >= n && events, {
        what: `${n} watch events`,
        timeoutMs,
      }).catch((err: Error) => {
        throw new Error(`${err.message}; got ${events.length}`)
      })
    },
  }
}

/** The ControllerHost Durable Object that runs the controller `name`. */
export const hostOf = (name: string) =>
  env.CONTROLLER_HOST.get(env.CONTROLLER_HOST.idFromName(hostObjectName(hostOfController(name))))
