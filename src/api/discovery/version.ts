/** What `/version` reports: kubectl (and its version dispatcher) read major/minor from it. */
export const versionInfo = {
  major: '1',
  minor: '32',
  gitVersion: 'v1.32.0-edgeplane',
  gitCommit: 'edgeplane',
  gitTreeState: 'clean',
  buildDate: '2026-01-01T00:00:00Z',
  goVersion: 'n/a',
  compiler: 'workerd',
  platform: 'workers/wasm',
}
