import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml'
import { kubectl } from './kubectl'
import type { TestServer } from './server'

/** A ServiceAccount as its holder sees it: its username, a bearer token and a kubeconfig holding that token. */
export interface ServiceAccountCredential {
  username: string
  token: string
  kubeconfig: string
}

/**
 * Creates ServiceAccount `namespace/name` as the admin, gets a token for it with `kubectl create
 * token`, and writes a kubeconfig like the admin's that holds that token instead.
 */
export async function serviceAccount(
  server: TestServer,
  namespace: string,
  name: string,
): Promise<ServiceAccountCredential> {
  const admin = (args: string[]) => kubectl(args, { kubeconfig: server.kubeconfig })
  const created = await admin(['create', 'serviceaccount', name, '-n', namespace])
  if (created.code !== 0)
    throw new Error(
      `kubectl create serviceaccount ${name} exited ${created.code}: ${created.stderr}`,
    )
  const issued = await admin(['create', 'token', name, '-n', namespace])
  if (issued.code !== 0)
    throw new Error(`kubectl create token ${name} exited ${issued.code}: ${issued.stderr}`)
  const token = issued.stdout.trim()
  const config = parseYaml(await readFile(server.kubeconfig, 'utf8'))
  for (const u of config.users) u.user = { token }
  const kubeconfig = join(server.stateDir, `kubeconfig-sa-${namespace}-${name}`)
  await writeFile(kubeconfig, stringifyYaml(config), { mode: 0o600 })
  return { username: `system:serviceaccount:${namespace}:${name}`, token, kubeconfig }
}
