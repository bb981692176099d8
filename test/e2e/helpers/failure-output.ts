import { beforeEach } from 'vitest'
import { startedServers } from './server'

/** How much of each server's output a failed test prints. */
const TAIL = 8 * 1024

// A test that fails prints the end of each running server's output (workerd's console among it),
// so a failure in CI says what the controllers and stores logged.
beforeEach(({ onTestFailed }) => {
  onTestFailed(() => {
    for (const server of startedServers()) {
      const out = server.output()
      if (out)
        process.stderr.write(
          `--- the end of the output of ${server.url} ---\n${out.slice(-TAIL)}\n`,
        )
    }
  })
})
