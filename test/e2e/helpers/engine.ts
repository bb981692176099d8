import Docker from 'dockerode'
import { findSocket } from '../../../src/agent/runtime/docker/socket'

/** The local image container tests run (`.ci/containers.sh` builds it, so nothing is pulled). */
export const TEST_IMAGE = 'localhost/busybox:test'

/** The container engine on this machine with the test image, or why container tests are skipped. */
export async function testEngine(
  file: string,
): Promise<{ socket: string; docker: Docker } | { skip: string }> {
  const found = await (async () => {
    const socket = await findSocket(process.env.EDGEPLANE_CONTAINER_SOCKET)
    if (!socket)
      return { skip: 'no container engine answers on its socket (run .ci/containers.sh as root)' }
    const docker = new Docker({ socketPath: socket })
    const present = await docker
      .getImage(TEST_IMAGE)
      .inspect()
      .then(
        () => true,
        () => false,
      )
    if (!present)
      return {
        skip: `the engine on ${socket} has no image ${TEST_IMAGE} (run .ci/containers.sh as root)`,
      }
    return { socket, docker }
  })()
  if ('skip' in found) process.stdout.write(`${file} skipped: ${found.skip}\n`)
  return found
}
