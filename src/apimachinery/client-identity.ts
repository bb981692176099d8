/**
 * How a verified client certificate's identity reaches the Worker from the TLS front that checked
 * it: `x-edgeplane-client-identity` holds base64 of `{"user": CN, "groups": [O…]}`, and
 * `x-edgeplane-client-cert` the secret the front shares with the Worker.
 */
export const clientCertMarkHeader = 'x-edgeplane-client-cert'
export const clientIdentityHeader = 'x-edgeplane-client-identity'

/** The header value the front sends. */
export function encodeClientIdentity(user: string, groups: string[]): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify({ user, groups }))))
}
