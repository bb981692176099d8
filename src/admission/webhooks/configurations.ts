/**
 * The webhook configurations this isolate admits with: both kinds read from their stores and kept,
 * re-checked at most once every `webhookRecheckMs`, and at once after a write to either kind through
 * this isolate (`stored-snapshot.ts`). A new or removed webhook takes effect within that second, as
 * kube-apiserver's informer-fed dispatcher does within its watch latency.
 */
import type { AdmissionBindings } from '../bindings'
import type { KubeObject } from '../../apimachinery/types'
import { findResource } from '../../apis/registry'
import { admissionGroup } from '../../apis/resource-table/extensions'
import type {
  Webhook,
  WebhookConfiguration,
} from '../../apis/admissionregistration/webhook-configuration'
import { webhookRecheckMs } from '../../config'
import { storedSnapshot } from '../stored-snapshot'

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

const configured = storedSnapshot(
  kinds.map((k) => k.def),
  webhookRecheckMs,
  (lists) => {
    const hooks: ConfiguredWebhook[] = []
    kinds.forEach(({ mutating }, i) => {
      const configs = lists[i]!.map((text) => JSON.parse(text) as WebhookConfiguration & KubeObject)
      configs.sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''))
      for (const config of configs)
        for (const hook of config.webhooks ?? [])
          hooks.push({ configuration: config.metadata.name ?? '', mutating, hook })
    })
    return hooks
  },
)

/** Every configured webhook: mutating ones sorted by configuration name, then validating ones. */
export function configuredWebhooks(env: AdmissionBindings): Promise<ConfiguredWebhook[]> {
  return configured.get(env)
}

/** Makes the next request re-read the configurations: called after a write to either kind. */
export function forgetWebhookConfigurations(): void {
  configured.forget()
}
