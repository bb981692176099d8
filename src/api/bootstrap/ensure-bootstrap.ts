import type { ApiBindings } from '../bindings'
import { findResource } from '../../apis/registry'
import { storeFor } from '../../store-client/stores'
import { ensureRbacBootstrap } from './rbac'
import { publishNodeSettings } from './node-settings'
import { ensureIngressClass } from '../../edge/ingress-class'
import { ensureClasses } from './classes'
import { ensureStorageClass } from '../../admission/storage-class'
import { ensureLocalApiServices } from './apiservices'
import { ensureFlowcontrolBootstrap } from './flowcontrol'

const namespacesDef = findResource('', 'v1', 'namespaces')!

/** The namespaces every cluster starts with. */
export const initialNamespaces = ['default', 'kube-system', 'kube-public', 'kube-node-lease']

let bootstrapped: Promise<void> | undefined

/**
 * Creates the initial namespaces and the edge IngressClass once per isolate (idempotent: existing
 * ones are left alone), publishes the settings nodes read before joining, and reconciles the
 * default RBAC policy.
 */
export function ensureBootstrap(env: ApiBindings): Promise<void> {
  bootstrapped ??= (async () => {
    const store = storeFor(env, namespacesDef)
    for (const name of initialNamespaces) {
      const existing = await store.get({ def: namespacesDef, name })
      if (!existing.ok)
        await store.create(
          { def: namespacesDef, name },
          { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
          {},
        )
    }
    await publishNodeSettings(env)
    await ensureRbacBootstrap(env)
    await ensureIngressClass(env)
    await ensureClasses(env)
    await ensureStorageClass(env)
    await ensureLocalApiServices(env)
    await ensureFlowcontrolBootstrap(env)
  })().catch((e) => {
    bootstrapped = undefined
    throw e
  })
  return bootstrapped
}
