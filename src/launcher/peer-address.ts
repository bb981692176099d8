/** A socket peer's address as the client's: an IPv4 peer of a dual-stack socket without its `::ffff:` prefix. */
export function peerAddress(remote: string | undefined): string {
  const address = remote ?? ''
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address) ? address.slice(7) : address
}
