// A node agent with its logs/exec tunnel, for end-to-end tests while src/agent/cli.ts does not
// dial the tunnel yet: the real NodeAgent and ProcessRuntime, wired as cli.ts wires them, plus
// connectTunnel, authenticated with the node's own token minted from the admin kubeconfig.
//
//   node --import tsx test/e2e/helpers/tunnel-agent.ts --kubeconfig FILE --name NODE
import { parseArgs } from 'node:util'
import { ApiClient } from '../../../src/agent/api-client'
import { machineCapacity, primaryIPv4, processNodeIdentity } from '../../../src/agent/host-info'
import { loadKubeconfig } from '../../../src/agent/kubeconfig'
import { createLogger } from '../../../src/agent/log'
import { NodeAgent } from '../../../src/agent/node-agent'
import { ProcessRuntime } from '../../../src/agent/runtime/process'
import { connectTunnel } from '../../../src/agent/tunnel'
import { nodeCredentials } from '../../../src/apimachinery/node-token'

const { values } = parseArgs({ options: { kubeconfig: { type: 'string' }, name: { type: 'string' } } })
const name = values.name!
const admin = loadKubeconfig(values.kubeconfig!)
const access = { ...admin, token: (await nodeCredentials(admin.token, name)).token }
const log = createLogger({ prefix: `tunnel-agent [${name}]`, verbose: !!process.env.EDGEPLANE_E2E_VERBOSE })
const api = new ApiClient(access, { maxSockets: 8, userAgent: 'edgeplane-agent/process' })
const runtime = new ProcessRuntime({ nodeIP: primaryIPv4(), log })
const agent = new NodeAgent({ api, identity: processNodeIdentity(name, {}, machineCapacity()), runtime, log, leaseSeconds: 10 })
const tunnel = connectTunnel({ server: access.server, ca: access.ca, insecureSkipTLSVerify: access.insecureSkipTlsVerify, token: access.token, nodeName: name, runtime, log: (m) => log.info(m), debug: (m) => log.info(m) })

let stopping = false
const stop = async () => {
  if (stopping) return
  stopping = true
  agent.stop()
  await Promise.allSettled([tunnel.close(), runtime.shutdown()])
  api.close()
  process.exit(0)
}
process.on('SIGTERM', () => void stop())
process.on('SIGINT', () => void stop())
await agent.start()
await agent.whenSynced()
log.info('ready')
