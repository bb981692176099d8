import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml'
import type { TestServer } from './server'

/**
 * Joins node `name` as the admin (`POST /agent/v1/nodes/<name>/credential`, as an agent given the
 * admin kubeconfig does) and returns the node's own bearer token.
 */
export async function nodeToken(server: TestServer, name: string): Promise<string> {
  const res = await server.request(`/agent/v1/nodes/${encodeURIComponent(name)}/credential`, {
    token: server.token,
    method: 'POST',
  })
  if (res.status !== 201) throw new Error(`joining ${name} answered ${res.status}: ${res.body}`)
  return JSON.parse(res.body).token as string
}

/** A kubeconfig like the admin one that holds node `name`'s credentials instead. */
export async function nodeKubeconfig(server: TestServer, name: string): Promise<string> {
  const config = parseYaml(await readFile(server.kubeconfig, 'utf8'))
  const token = await nodeToken(server, name)
  for (const u of config.users) u.user = { token }
  const path = join(server.stateDir, `kubeconfig-node-${name}`)
  await writeFile(path, stringifyYaml(config), { mode: 0o600 })
  return path
}
