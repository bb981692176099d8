/**
 * The webhook configurations this isolate admits with: both kinds read from their stores and kept,
 * re-checked (one resourceVersion call per kind) at most once every `webhookRecheckMs`, and at once
 * after a write to either kind through this isolate. A new or removed webhook takes effect within
 * that second, as kube-apiserver's informer-fed dispatcher does within its watch latency.
 */
import type { Env } from '../../env'
import type { KubeObject } from '../../apimachinery/types'
import { admissionGroup, findResource } from '../../apis/registry'
import type { Webhook, WebhookConfiguration } from '../../apis/admissionregistration/webhook-configuration'
import { storeFor } from '../../store-client/stores'
import { allItems, listPages } from '../../store-client/list-pages'
import { webhookRecheckMs } from '../../config'

export interface ConfiguredWebhook {
  /** the configuration's name, which orders mutating webhooks */
  configuration: string
  mutating: boolean
  hook: Webhook
}

const kinds = [
  { mutating: true, def: findResource(admissionGroup, 'v1', 'mutatingwebhookconfigurations')! },
  { mutating: false, def: findResource(admissionGroup, 'v1', 'validatingwebhookconfigurations')! },
]

interface Snapshot {
  hooks: ConfiguredWebhook[]
  revisions: number[]
  checkedAt: number
}

let snapshot: Snapshot | undefined
let pending: { startedAt: number; done: Promise<Snapshot> } | undefined
const abandonedRefreshMs = 10_000

/**
 * Every configured webhook: mutating ones sorted by configuration name, then validating ones.
 * A request never waits on another request's refresh: its store calls belong to that request, and
 * if that request is cancelled (its client went away) they never settle, so every request waiting
 * on them would hang. While one refreshes, the others use the snapshot there is.
 */
export async function configuredWebhooks(env: Env): Promise<ConfiguredWebhook[]> {
  if (!snapshot || Date.now() - snapshot.checkedAt >= webhookRecheckMs) {
    // A refresh that has not settled in this long belonged to a request that is gone: start another.
    if (snapshot && pending && Date.now() - pending.startedAt < abandonedRefreshMs) return snapshot.hooks
    const mine = { startedAt: Date.now(), done: refresh(env, snapshot) }
    pending = mine
    try {
      snapshot = await mine.done
    } finally {
      if (pending === mine) pending = undefined
    }
  }
  return snapshot.hooks
}

/** Makes the next request re-read the configurations: called after a write to either kind. */
export function forgetWebhookConfigurations(): void {
  if (snapshot) snapshot.checkedAt = 0
}

async function refresh(env: Env, current: Snapshot | undefined): Promise<Snapshot> {
  const checkedAt = Date.now()
  const revisions = await Promise.all(kinds.map(({ def }) => storeFor(env, def).revision()))
  if (current && revisions.every((rv, i) => rv === current.revisions[i])) return { ...current, checkedAt }
  const lists = await Promise.all(kinds.map(({ def }) => allItems(listPages(env, def, {}))))
  const hooks: ConfiguredWebhook[] = []
  kinds.forEach(({ mutating }, i) => {
    const configs = lists[i]!.map((text) => JSON.parse(text) as WebhookConfiguration & KubeObject)
    configs.sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''))
    for (const config of configs) for (const hook of config.webhooks ?? []) hooks.push({ configuration: config.metadata.name ?? '', mutating, hook })
  })
  return { hooks, revisions, checkedAt }
}
