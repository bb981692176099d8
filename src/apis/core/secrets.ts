/** core/v1 Secret: its strategy. */
import type { KubeObject } from '../../apimachinery/types'
import { asRecord } from '../../apimachinery/json-value'
import type { KindStrategy } from '../kind-strategy'
import { validateSecret } from '../validation/core'

/** As the Secret conversion upstream: `stringData` is a write-only convenience merged into `data`. */
function mergeStringData(obj: KubeObject): void {
  const stringData = asRecord(obj.stringData)
  if (obj.stringData === undefined) return
  const data = { ...asRecord(obj.data) }
  for (const [k, v] of Object.entries(stringData)) {
    const bytes = new TextEncoder().encode(String(v))
    data[k] = btoa(String.fromCharCode(...bytes))
  }
  obj.data = data
  delete obj.stringData
}

export const secretStrategy: KindStrategy = {
  defaults: (obj) => {
    mergeStringData(obj)
    obj.type ??= 'Opaque'
  },
  validate: validateSecret,
}
