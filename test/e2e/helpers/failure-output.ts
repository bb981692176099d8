import { beforeEach } from 'vitest'
import { runningAgents } from './node-agent'
import { startedServers } from './server'

/** How much of each process's output a failed test prints. */
const TAIL = 8 * 1024

const print = (what: string, out: string) => {
  if (out) process.stderr.write(`--- the end of the output of ${what} ---\n${out.slice(-TAIL)}\n`)
}

// A test that fails prints the end of the output of each running server (workerd's console among
// it) and node agent, so a failure in CI says what the controllers, stores and agents logged.
beforeEach(({ onTestFailed }) => {
  onTestFailed(() => {
    for (const server of startedServers()) print(server.url, server.output())
    for (const agent of runningAgents()) print(`the agent in ${agent.stateDir}`, agent.output())
  })
})
