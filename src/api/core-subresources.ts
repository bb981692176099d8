import type { ApiBindings } from './bindings'
import { ApiError, methodNotAllowed, qualifiedResource } from '../apimachinery/status'
import type { ParsedRequest, RequestInfo } from './http/request-info'
import { servePodExec } from './pods/exec'
import { servePodLogs } from './pods/logs'
import { servePodPortForward } from './pods/portforward'
import { podBackend, serveProxy, serviceBackend, type ProxyBackend } from './proxies/proxy'
import { serveComponentStatuses } from './views/component-statuses'

const notAllowed = () =>
  new ApiError(methodNotAllowed('the server does not allow this method on the requested resource'))

/** A named object's subresource served by a handler of its own, outside the generic resource handler. */
interface StreamRoute {
  /** the methods served; any other is refused (405); every method when unset */
  methods?: readonly string[]
  serve(
    req: Request,
    env: ApiBindings,
    namespace: string,
    name: string,
    parsed: ParsedRequest,
  ): Promise<Response>
}

const proxyTo = (backend: ProxyBackend): StreamRoute => ({
  serve: (req, env, namespace, name, parsed) =>
    serveProxy(req, env, backend, namespace, name, parsed.proxyPath ?? '/'),
})

/** By `<resource>/<subresource>` (as RBAC names them), for core/v1 resources. */
const routes = new Map<string, StreamRoute>([
  ['services/proxy', proxyTo(serviceBackend)],
  ['pods/proxy', proxyTo(podBackend)],
  [
    'pods/log',
    {
      methods: ['GET', 'HEAD'],
      serve: (req, env, namespace, name) => servePodLogs(req, env, namespace, name),
    },
  ],
  [
    'pods/exec',
    {
      methods: ['GET', 'POST'],
      serve: (req, env, namespace, name) => servePodExec(req, env, namespace, name, false),
    },
  ],
  [
    'pods/attach',
    {
      methods: ['GET', 'POST'],
      serve: (req, env, namespace, name) => servePodExec(req, env, namespace, name, true),
    },
  ],
  [
    'pods/portforward',
    {
      methods: ['GET', 'POST'],
      serve: (req, env, namespace, name) => servePodPortForward(req, env, namespace, name),
    },
  ],
])

/** Resources answered by a handler of their own, as a whole (no namespace, name optional, no subresource). */
const listedResources = new Map<
  string,
  (req: Request, env: ApiBindings, name: string | undefined) => Promise<Response>
>([[qualifiedResource('', 'componentstatuses'), serveComponentStatuses]])

function routeFor(info: RequestInfo): StreamRoute | undefined {
  if (
    info.group !== '' ||
    info.namespace === undefined ||
    info.name === undefined ||
    info.subresource === undefined
  )
    return undefined
  return routes.get(`${info.resource}/${info.subresource}`)
}

/**
 * The core/v1 paths served by handlers of their own (a pod's log, exec, attach, port-forward and
 * proxy, a service's proxy, component statuses), routed from the request's one reading; undefined
 * for what the generic resource handler serves.
 */
export function routeCoreSubresource(
  req: Request,
  env: ApiBindings,
  parsed: ParsedRequest,
): Promise<Response> | undefined {
  const info = parsed.info
  if (!info) return undefined
  const whole =
    info.namespace === undefined && info.subresource === undefined
      ? listedResources.get(qualifiedResource(info.group, info.resource))
      : undefined
  if (whole) return whole(req, env, info.name)
  const route = routeFor(info)
  if (!route) return undefined
  if (route.methods && !route.methods.includes(req.method.toUpperCase())) throw notAllowed()
  return route.serve(req, env, info.namespace!, info.name!, parsed)
}

/** Subresources answered with their backend's own body, passed on as it is: a pod's or service's proxy. */
const passedThrough: ReadonlySet<string> = new Set(['proxy'])

export function passesBodyThrough(info: RequestInfo | undefined): boolean {
  return info?.subresource !== undefined && passedThrough.has(info.subresource)
}
