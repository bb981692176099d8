import type { AdmissionBindings } from './bindings'
import type { KubeObject } from '../apimachinery/types'
import { ApiError, failure, notFound } from '../apimachinery/status'
import { findResource } from '../apis/registry'
import { storeFor } from '../store-client/stores'
import type { AdmissionAttributes } from './attributes'

const namespacesDef = findResource('', 'v1', 'namespaces')!

/**
 * The NamespaceLifecycle admission plugin: nothing is created in a namespace that does not exist
 * (404) or is being terminated (403). Throws ApiError with the refusal.
 */
export async function admitNamespaceLifecycle(
  env: AdmissionBindings,
  attrs: Pick<AdmissionAttributes, 'operation' | 'namespace'>,
): Promise<void> {
  const { namespace } = attrs
  if (attrs.operation !== 'CREATE' || !namespace) return
  const res = await storeFor(env, namespacesDef).get({ def: namespacesDef, name: namespace })
  if (!res.ok) throw new ApiError(notFound('', 'namespaces', namespace))
  const ns = JSON.parse(res.value) as KubeObject
  if ((ns.status as { phase?: string } | undefined)?.phase === 'Terminating') {
    throw new ApiError(
      failure(
        403,
        'Forbidden',
        `unable to create new content in namespace ${namespace} because it is being terminated`,
        { name: namespace, kind: 'namespaces' },
      ),
    )
  }
}
