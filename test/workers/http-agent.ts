import { env } from 'cloudflare:test'
import { encodeFrame } from '../../src/agent-protocol/data-frames'
import { serveIngress } from '../../src/edge/serve-ingress'
import { fakeAgent } from './fake-agent'

const enc = new TextEncoder()

/** An `http` stream the gateway opened at a fake agent: which pod it was for, and what the pod was sent. */
export interface HttpOpen {
  namespace: string
  pod: string
  podUid: string
  path: string
  headers: Array<[string, string]>
}

/**
 * A fake agent whose pods answer every HTTP request with `<namespace>/<pod> <path>`: the node end
 * of the tunnel, recording each request it is asked to make.
 */
export async function httpAgent(node: string) {
  const agent = await fakeAgent(node)
  const opened: HttpOpen[] = []
  agent.ws.addEventListener('message', (e) => {
    if (typeof e.data !== 'string') return
    const msg = JSON.parse(e.data)
    if (msg.op !== 'http') return
    opened.push({
      namespace: msg.namespace,
      pod: msg.pod,
      podUid: msg.podUid,
      path: msg.path,
      headers: msg.headers,
    })
    const head = { status: 200, headers: [['Content-Type', 'text/plain']] }
    agent.ws.send(encodeFrame(msg.id, 3, enc.encode(JSON.stringify(head))))
    agent.ws.send(encodeFrame(msg.id, 1, enc.encode(`${msg.namespace}/${msg.pod} ${msg.path}`)))
    agent.ws.send(JSON.stringify({ op: 'end', id: msg.id }))
  })
  return { agent, opened }
}

/** The Worker's edge as deployed with the API at `edgeplane.test`: every other host is ingress traffic. */
export const edgeEnv = { ...env, EDGEPLANE_API_HOST: 'edgeplane.test' }

/** A request to the edge for `host` and `path`. */
export async function viaEdge(
  host: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  const res = await serveIngress(
    new Request(`https://${host}${path}`, { headers: { ...headers, Host: host } }),
    edgeEnv,
  )
  return { status: res.status, body: await res.text() }
}

/** Waits out the edge's route table and endpoint caches (a second each), so the next request sees the latest objects. */
export const cachesExpire = () => new Promise((r) => setTimeout(r, 1_100))
