import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'

/** Writes a kubeconfig that reaches the local server over verified TLS with the admin token. */
export async function writeKubeconfig(
  stateDir: string,
  opts: { server: string; caPem: string; token: string },
): Promise<string> {
  const path = join(stateDir, 'kubeconfig')
  // A fixed shape, so a template is enough; JSON-quoted scalars are valid YAML strings.
  const q = (s: string) => JSON.stringify(s)
  const text = [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: edgeplane',
    '  cluster:',
    `    server: ${q(opts.server)}`,
    `    certificate-authority-data: ${Buffer.from(opts.caPem).toString('base64')}`,
    'users:',
    '- name: edgeplane-admin',
    '  user:',
    `    token: ${q(opts.token)}`,
    'contexts:',
    '- name: edgeplane',
    '  context:',
    '    cluster: edgeplane',
    '    user: edgeplane-admin',
    '    namespace: default',
    'current-context: edgeplane',
    'preferences: {}',
    '',
  ].join('\n')
  // Holds the admin token, hence owner-only.
  await writeFile(path, text, { mode: 0o600 })
  return path
}
