import type { ApiBindings } from '../bindings'
import { ApiError, badRequest } from '../../apimachinery/status'
import { gatewayFor, streamUrl } from '../../../durable-objects/node-gateway/client'
import { chooseContainer, readPod } from './logs'
import { queryFlag } from '../http/query'
import { streamUpgrade } from './stream-upgrade'

/**
 * GET pods/{name}/exec (and pods/{name}/attach, the container's own process) as a WebSocket in
 * any of the channel protocols kube-apiserver and the kubelet serve (`v5.channel.k8s.io`,
 * `v4.channel.k8s.io`, `channel.k8s.io` and their base64 forms): the socket is handed to the
 * node's gateway, which relays its channels to the agent and ends it with the exit Status on
 * channel 3. A request that cannot be upgraded (kubectl's SPDY fallback POST) gets the same
 * checks and the Status that explains why.
 */
export async function servePodExec(
  req: Request,
  env: ApiBindings,
  namespace: string,
  name: string,
  attach = false,
): Promise<Response> {
  const pod = await readPod(env, namespace, name)
  const q = new URL(req.url).searchParams
  const command = attach ? [] : q.getAll('command')
  if (!attach && command.length === 0)
    throw new ApiError(badRequest('you must specify at least 1 command'))
  const what = attach ? 'pods/attach' : 'pods/exec'
  const stdin = queryFlag(q, 'stdin')
  const stdout = queryFlag(q, 'stdout')
  const stderr = queryFlag(q, 'stderr')
  const tty = queryFlag(q, 'tty')
  if (!stdin && !stdout && !stderr)
    throw new ApiError(badRequest('you must specify at least 1 of stdin, stdout, stderr'))
  const container = chooseContainer(pod, q.get('container'))
  const node = pod.spec?.nodeName
  if (!node) throw new ApiError(badRequest(`pod ${name} does not have a host assigned`))
  const gateway = gatewayFor(env, node)

  const upgrade = await streamUpgrade(req, gateway, node, what, 'exec')
  if (upgrade instanceof Response) return upgrade
  const url = streamUrl(node, {
    op: 'exec',
    podUid: pod.metadata.uid ?? '',
    namespace,
    pod: name,
    container,
    command,
    stdin,
    tty,
    stdout,
    stderr: stderr && !tty,
    protocol: upgrade.protocol,
    ...(attach ? { attach } : {}),
  })
  return gateway.fetch(new Request(url, { headers: req.headers }))
}
