/**
 * X.509 client-certificate authentication. TLS ends before the Worker, so the certificate is
 * verified where the handshake happens: the local launcher's https front asks every client for a
 * certificate, verifies it against the cluster CA and passes the identity on in
 * `x-edgeplane-client-identity`, marked with the secret it shares with the Worker
 * (EDGEPLANE_CLIENT_CERT_SECRET); a request without that secret is never taken for a certificate
 * user. As kube-apiserver's x509 authenticator: the common name is the user, each organization a group.
 */
import type { Variables } from '../../settings/variables'
import { sameSecret } from '../../apimachinery/secret-compare'
import { authenticated, type UserInfo } from './user'
import { clientCertMarkHeader, clientIdentityHeader } from '../../apimachinery/client-identity'

/** The verified certificate's user, or undefined when the request carries none (or an unmarked one). */
export async function clientCertUser(
  req: Request,
  env: Pick<Variables, 'EDGEPLANE_CLIENT_CERT_SECRET'>,
): Promise<UserInfo | undefined> {
  const mark = req.headers.get(clientCertMarkHeader)
  const identity = req.headers.get(clientIdentityHeader)
  const secret = env.EDGEPLANE_CLIENT_CERT_SECRET
  if (mark === null || identity === null || !secret || !(await sameSecret(mark, secret)))
    return undefined
  try {
    const parsed = JSON.parse(
      new TextDecoder().decode(Uint8Array.from(atob(identity), (c) => c.charCodeAt(0))),
    ) as { user?: unknown; groups?: unknown }
    if (typeof parsed.user !== 'string' || !parsed.user) return undefined
    const groups = Array.isArray(parsed.groups)
      ? parsed.groups.filter((g): g is string => typeof g === 'string')
      : []
    return { username: parsed.user, groups: [...groups, authenticated] }
  } catch {
    return undefined
  }
}
