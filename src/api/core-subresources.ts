import type { Env } from '../env'
import { ApiError, methodNotAllowed } from '../apimachinery/status'
import type { ParsedRequest } from './request-info'
import { servePodExec } from './pod-exec'
import { servePodLogs } from './pod-logs'
import { servePodPortForward } from './pod-portforward'
import { serveProxy } from './proxy'
import { serveComponentStatuses } from './component-statuses'

const notAllowed = () => new ApiError(methodNotAllowed('the server does not allow this method on the requested resource'))

/**
 * The core/v1 paths served by handlers of their own (a pod's log, exec, attach, port-forward and
 * proxy, a service's proxy, component statuses), routed from the request's one reading; undefined
 * for what the generic resource handler serves.
 */
export function routeCoreSubresource(req: Request, env: Env, parsed: ParsedRequest): Promise<Response> | undefined {
  const info = parsed.info
  if (!info || info.group !== '') return undefined
  if (info.resource === 'componentstatuses' && info.namespace === undefined && info.subresource === undefined) return serveComponentStatuses(req, env, info.name)
  const { namespace, name, subresource } = info
  if (namespace === undefined || name === undefined || subresource === undefined) return undefined
  const method = req.method.toUpperCase()
  if (info.resource === 'services' && subresource === 'proxy') return serveProxy(req, env, 'services', namespace, name, parsed.proxyPath ?? '/')
  if (info.resource !== 'pods') return undefined
  switch (subresource) {
    case 'proxy':
      return serveProxy(req, env, 'pods', namespace, name, parsed.proxyPath ?? '/')
    case 'log':
      if (method !== 'GET' && method !== 'HEAD') throw notAllowed()
      return servePodLogs(req, env, namespace, name)
    case 'exec':
    case 'attach':
    case 'portforward':
      if (method !== 'GET' && method !== 'POST') throw notAllowed()
      return subresource === 'portforward' ? servePodPortForward(req, env, namespace, name) : servePodExec(req, env, namespace, name, subresource === 'attach')
    default:
      return undefined
  }
}
