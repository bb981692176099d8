/**
 * Requests for the group version of a Service-backed APIService. This server does not proxy
 * aggregated APIs: such a group version is never listed in discovery, and a request for it answers
 * 503 ServiceUnavailable (as kube-apiserver answers while an APIService is unavailable), with a
 * message that says so.
 */
import type { ApiBindings } from '../bindings'
import type { KubeObject } from '../../apimachinery/types'
import { failure } from '../../apimachinery/status'
import { findResource } from '../../apis/registry'
import { apiServiceName, servedLocally, specOf } from '../../apis/apiregistration/apiservice'
import { storeFor } from '../../store-client/stores'
import { statusResponse } from '../http/respond'
import { customResources } from '../../store-client/custom-resources'

const apiServicesDef = () => findResource('apiregistration.k8s.io', 'v1', 'apiservices')!

/** The 503 for a group version registered by a Service-backed APIService; undefined when there is none (or this server serves it). */
export async function unservedAggregatedApi(
  env: ApiBindings,
  group: string,
  version: string,
): Promise<Response | undefined> {
  if (servedLocally(group, version)) return undefined
  if ((await customResources(env)).some((d) => d.group === group && d.version === version))
    return undefined
  const def = apiServicesDef()
  const res = await storeFor(env, def).get({ def, name: apiServiceName(group, version) })
  if (!res.ok) return undefined
  const found = JSON.parse(res.value) as KubeObject
  const ref = specOf(found).service
  if (!ref) return undefined
  const gv = `${group}/${version}`
  const message = `the aggregated API ${gv} (APIService ${found.metadata.name}, backed by service ${ref.namespace}/${ref.name}) is not served: this API server does not proxy aggregated APIs; requests for ${gv} are not served`
  return statusResponse(failure(503, 'ServiceUnavailable', message))
}
