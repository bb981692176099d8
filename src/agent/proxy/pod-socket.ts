import { connect, type Socket } from 'node:net'
import { dialError } from '../portforward/session'

/**
 * A TCP connection to a pod's port at the first of its addresses that accepts (the runtime's
 * `portHosts`: loopback then IPv6 loopback for the process runtime, the pod IP for docker);
 * rejects with every address's dial error in Go's words.
 */
export function connectPod(hosts: string[], port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const errors: string[] = []
    const next = (index: number) => {
      const host = hosts[index]
      if (host === undefined) return reject(new Error(errors.join(' ') || 'the pod has no address'))
      const socket = connect({ host, port })
      socket.setNoDelay(true)
      const onError = (err: NodeJS.ErrnoException) => {
        errors.push(dialError(host, port, err))
        socket.destroy()
        next(index + 1)
      }
      socket.once('error', onError)
      socket.once('connect', () => {
        socket.off('error', onError)
        resolve(socket)
      })
    }
    next(0)
  })
}
