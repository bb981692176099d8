import type { ApiBindings } from '../bindings'
import type { KubeObject } from '../../apimachinery/types'
import { findResource } from '../../apis/registry'
import { storeFor } from '../../store-client/stores'
import {
  GRACE_PERIOD_KEY,
  NODE_SETTINGS_NAME,
  NODE_SETTINGS_NAMESPACE,
} from '../../agent-protocol/node-settings'
import { settingsOf } from '../../settings/settings'

const configMapsDef = findResource('', 'v1', 'configmaps')!

/** The published settings: the node monitor grace period the node lifecycle controller applies. */
export function nodeSettingsData(env: ApiBindings): Record<string, string> {
  return { [GRACE_PERIOD_KEY]: String(settingsOf(env).nodeMonitorGracePeriodMs / 1000) }
}

/**
 * Writes `kube-public/edgeplane-node-settings` when it is missing or says something else than this
 * control plane applies (after a restart with another grace period).
 */
export async function publishNodeSettings(env: ApiBindings): Promise<void> {
  const store = storeFor(env, configMapsDef)
  const at = { def: configMapsDef, namespace: NODE_SETTINGS_NAMESPACE, name: NODE_SETTINGS_NAME }
  const data = nodeSettingsData(env)
  const existing = await store.get(at)
  if (!existing.ok) {
    await store.create(
      at,
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: NODE_SETTINGS_NAME, namespace: NODE_SETTINGS_NAMESPACE },
        data,
      },
      {},
    )
    return
  }
  const current = JSON.parse(existing.value) as KubeObject & { data?: Record<string, string> }
  if (JSON.stringify(current.data ?? {}) === JSON.stringify(data)) return
  await store.update(at, { ...current, data }, undefined, {})
}
