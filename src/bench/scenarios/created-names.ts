import type { HttpClient } from '../http-client'
import { progress } from '../progress'

/** Whether `name` is one the bench gives its objects with `prefix` (payload.ts objectName). */
export function isBenchObject(name: string, prefix: string): boolean {
  return (
    name.length === prefix.length + 7 &&
    name.startsWith(`${prefix}-`) &&
    /^\d{6}$/.test(name.slice(prefix.length + 1))
  )
}

/**
 * The names of the objects a create series stored in `namespace`, as listed: a create that timed
 * out on the client may still have been stored, so the list is the truth. What the cluster keeps
 * in every namespace (the `kube-root-ca.crt` ConfigMap) is not the series' and is left out.
 */
export async function createdNames(
  client: HttpClient,
  path: string,
  prefix: string,
  expected: number,
): Promise<string[]> {
  const res = await client.expectOk('GET', path)
  const listed = (JSON.parse(res.body) as { items: { metadata: { name: string } }[] }).items.map(
    (i) => i.metadata.name,
  )
  const names = listed.filter((name) => isBenchObject(name, prefix))
  if (names.length !== expected)
    progress(
      `  note: ${expected} creates succeeded on the client, ${names.length} objects are stored`,
    )
  return names
}
