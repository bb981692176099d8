import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml'
import { mintNodeToken } from '../../../src/apimachinery/node-token'
import type { TestServer } from './server'

/** The bearer token node `name` authenticates with on this server. */
export function nodeToken(server: TestServer, name: string): Promise<string> {
  return mintNodeToken(server.token, name)
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
