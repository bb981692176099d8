#!/usr/bin/env node
// `npx edgeplane-agent --kubeconfig F --name N --runtime process|sim`: the agent CLI, run from the
// package's TypeScript sources through tsx.
import { register } from 'tsx/esm/api'

register()
const { main } = await import('./cli.ts')
try {
  await main(process.argv.slice(2))
} catch (err) {
  process.stderr.write(`edgeplane-agent: ${err?.stack ?? err}\n`)
  process.exit(1)
}
