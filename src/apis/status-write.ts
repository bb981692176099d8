import type { KubeObject } from '../apimachinery/types'

/** A status write's object: the stored one with the status sent, as a status subresource keeps all else. */
export function withStatusOf(old: KubeObject, incoming: KubeObject): KubeObject {
  return { ...old, status: incoming.status, metadata: { ...old.metadata } }
}
