import { BlockList, isIP } from 'node:net'
import { networkInterfaces } from 'node:os'

/**
 * `--nodeport-addresses`, as kube-proxy's flag: a comma-separated list of IP addresses or CIDR
 * ranges. Undefined (the flag unset) means every address of the node. Throws on an entry that is
 * neither.
 */
export function parseNodePortAddresses(text: string): string[] {
  const entries = text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)
  if (entries.length === 0)
    throw new Error('--nodeport-addresses needs at least one IP address or CIDR')
  for (const e of entries)
    if (!isIP(e) && !cidr(e))
      throw new Error(`--nodeport-addresses entry "${e}" is neither an IP address nor a CIDR`)
  return entries
}

function cidr(
  text: string,
): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | undefined {
  const slash = text.indexOf('/')
  if (slash < 0) return undefined
  const address = text.slice(0, slash)
  const bits = text.slice(slash + 1)
  const v = isIP(address)
  const prefix = Number(bits)
  if (!v || !/^\d+$/.test(bits) || prefix > (v === 4 ? 32 : 128)) return undefined
  return { address, prefix, family: v === 4 ? 'ipv4' : 'ipv6' }
}

/**
 * The addresses to bind node ports on: a plain IP as given (a loopback alias such as 127.0.0.2
 * need not be an interface's); for a CIDR, the node's interface addresses inside it. `[undefined]`
 * for every address (the flag unset).
 */
export function bindAddresses(
  entries: string[] | undefined,
  interfaces = networkInterfaces(),
): Array<string | undefined> {
  if (!entries) return [undefined]
  const out = new Set<string>()
  const local = Object.values(interfaces).flatMap((list) => list ?? [])
  for (const e of entries) {
    if (isIP(e)) {
      out.add(e)
      continue
    }
    const range = cidr(e)!
    const list = new BlockList()
    list.addSubnet(range.address, range.prefix, range.family)
    for (const addr of local) {
      const family = addr.family === 'IPv4' ? 'ipv4' : 'ipv6'
      if (family === range.family && list.check(addr.address, family)) out.add(addr.address)
    }
  }
  return [...out]
}
