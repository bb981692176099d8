import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { forwardConnection, type ForwardContext } from '../../../../src/agent/node-ports/forward'
import type { NodePortEntry } from '../../../../src/agent/node-ports/table'
import type { EndpointTarget } from '../../../../src/apis/endpoint-targets'

const servers: Server[] = []
afterEach(() => servers.splice(0).forEach((s) => s.close()))

const listen = (onConnection: (s: Socket) => void) =>
  new Promise<number>((resolve) => {
    const server = createServer({ pauseOnConnect: true }, onConnection)
    servers.push(server)
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port))
  })

/** What a client of the node port reads before the connection closes. */
const readAll = (port: number) =>
  new Promise<string>((resolve) => {
    let got = ''
    const c = connect({ host: '127.0.0.1', port })
    c.on('data', (d) => (got += d.toString()))
    c.on('error', () => resolve(got))
    c.on('close', () => resolve(got))
  })

describe("a node port's connection to a pod on its own node", () => {
  it('reaches the pod its Endpoints name only when this node runs that pod under that uid', async () => {
    const podPort = await listen((s) => s.end('hello from shop/web'))
    // The node runs shop/web (uid u-web) and other/db (uid u-db), both listening on the loopback.
    const pods = new Map([
      ['shop/web', 'u-web'],
      ['other/db', 'u-db'],
    ])
    const ctx: ForwardContext = {
      node: 'n1',
      runtime: {
        portHosts: (uid: string) => (uid === 'u-web' || uid === 'u-db' ? ['127.0.0.1'] : undefined),
      } as unknown as ForwardContext['runtime'],
      tunnel: { dial: () => undefined },
      log: { debug: () => {} } as unknown as ForwardContext['log'],
      podUid: (ns, name) => pods.get(`${ns}/${name}`),
    }
    const target = (pod: string, podUid: string): EndpointTarget => ({
      node: 'n1',
      namespace: 'shop',
      pod,
      podUid,
      port: podPort,
    })
    const nodePort = (t: EndpointTarget) =>
      listen(
        (s) =>
          void forwardConnection(
            s,
            {
              nodePort: 30080,
              namespace: 'shop',
              service: 'web',
              local: false,
              endpoints: [t],
            } as NodePortEntry,
            [t],
            ctx,
          ),
      )

    expect(await readAll(await nodePort(target('web', 'u-web')))).toBe('hello from shop/web')
    // A hand-written address naming another namespace's pod by its uid under a name of its own.
    expect(await readAll(await nodePort(target('web', 'u-db')))).toBe('')
    expect(await readAll(await nodePort(target('db', 'u-db')))).toBe('')
  })
})
