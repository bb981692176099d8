/**
 * X.509 client certificates verified at Cloudflare's edge. A deployed Worker sees no TLS: the
 * edge ends it and, on a hostname with mTLS (API Shield, the cluster CA uploaded as a "bring your
 * own CA" certificate and associated with the hostname), asks the client for a certificate, checks
 * its chain and reports the outcome in `request.cf.tlsClientAuth`, which no client can set. Trusted
 * only when EDGEPLANE_CLOUDFLARE_MTLS is "true" (off by default; the local launcher always turns it
 * off, since a local runtime takes request.cf from whoever calls it).
 *
 * As kube-apiserver's x509 authenticator: the common name is the user and each organization a
 * group; a certificate presented but not good (not verified, revoked, outside its validity, or
 * issued by another CA the zone trusts) is an authentication error, which fails the request with
 * 401 unless a token authenticates it, and is never taken for an anonymous request.
 *
 * The issuer is the cluster CA only when both its subject key identifier (`certIssuerSKI`) and its
 * name match: any CA can take any subject. Names are read only in their RFC 2253 form
 * (`certIssuerDNRFC2253`, `certSubjectDNRFC2253`), whose escaping is specified; the other forms'
 * is not, and a value holding `,O=...` could read as another attribute.
 */
import type { Variables } from '../../settings/variables'
import { settingsOf } from '../../settings/settings'
import {
  attributeValues,
  oidCommonName,
  oidOrganization,
  parseDistinguishedName,
  sameName,
} from '../../apimachinery/x509/distinguished-name'
import { clusterCaName, normalizeKeyId } from '../../certificates/cluster-ca-name'
import { authenticated, type UserInfo } from './user'

/** A user, a refused certificate (with why), or undefined when there is no certificate to judge. */
export type EdgeCertificateOutcome = { user: UserInfo } | { refused: string } | undefined

type EdgeEnv = Pick<Variables, 'EDGEPLANE_CLOUDFLARE_MTLS' | 'CLUSTER_CA_CERT'>

/** The fields of `request.cf.tlsClientAuth` read here (workers-types names them), each as text. */
type TlsClientAuth = Record<
  keyof Pick<
    IncomingRequestCfPropertiesTLSClientAuth,
    | 'certPresented'
    | 'certVerified'
    | 'certRevoked'
    | 'certIssuerSKI'
    | 'certIssuerDNRFC2253'
    | 'certSubjectDNRFC2253'
    | 'certNotBefore'
    | 'certNotAfter'
  >,
  string
>

export function edgeClientCertEnabled(env: EdgeEnv): boolean {
  return settingsOf(env).cloudflareMtls
}

export function edgeClientCertUser(
  req: Request,
  env: EdgeEnv,
  nowMs = Date.now(),
): EdgeCertificateOutcome {
  if (!edgeClientCertEnabled(env)) return undefined
  const auth = tlsClientAuthOf(req)
  if (!auth || auth.certPresented !== '1') return undefined
  const ca = clusterCaName(env)
  // As upstream with no client CA bundle: nothing to authenticate against, and no error.
  if (!ca) return undefined
  if (ca instanceof Error) return { refused: warnOnce(ca.message) }
  if (auth.certVerified !== 'SUCCESS')
    return {
      refused: `the edge did not verify the certificate (${auth.certVerified || 'no outcome'})`,
    }
  if (auth.certRevoked !== '0') return { refused: 'the certificate is revoked' }
  if (normalizeKeyId(auth.certIssuerSKI) !== ca.subjectKeyId)
    return {
      refused: `the certificate's issuer key identifier "${auth.certIssuerSKI}" is not the cluster CA's`,
    }
  const issuerText = auth.certIssuerDNRFC2253
  const issuer = issuerText ? parseDistinguishedName(issuerText) : undefined
  if (!issuer || !sameName(issuer, ca.subject))
    return { refused: `the certificate's issuer "${issuerText}" is not the cluster CA` }
  const notBefore = parseCertificateTime(auth.certNotBefore)
  const notAfter = parseCertificateTime(auth.certNotAfter)
  if (notBefore === undefined || notAfter === undefined)
    return {
      refused: `the certificate's validity "${auth.certNotBefore}" to "${auth.certNotAfter}" cannot be read`,
    }
  if (nowMs < notBefore || nowMs > notAfter)
    return { refused: 'x509: certificate has expired or is not yet valid' }
  if (nowMs < ca.notBefore || nowMs > ca.notAfter)
    return { refused: 'x509: the cluster CA certificate has expired or is not yet valid' }
  const subjectText = auth.certSubjectDNRFC2253
  const subject = subjectText ? parseDistinguishedName(subjectText) : undefined
  if (!subject) return { refused: `the certificate's subject "${subjectText}" cannot be read` }
  // Go's pkix.Name keeps the last common name in encoded order, and every organization.
  const user = attributeValues(subject, oidCommonName).at(-1)
  if (!user) return undefined
  return {
    user: { username: user, groups: [...attributeValues(subject, oidOrganization), authenticated] },
  }
}

const warned = new Set<string>()

/** Logs a configuration problem once per isolate; returns it. */
function warnOnce(message: string): string {
  if (!warned.has(message)) {
    warned.add(message)
    console.error(`client certificates at the edge are refused: ${message}`)
  }
  return message
}

/** The request's `cf.tlsClientAuth`, when it has one whose fields are all strings. */
function tlsClientAuthOf(req: Request): TlsClientAuth | undefined {
  const cf = (req as { cf?: unknown }).cf
  const auth =
    cf && typeof cf === 'object' ? (cf as { tlsClientAuth?: unknown }).tlsClientAuth : undefined
  if (!auth || typeof auth !== 'object') return undefined
  const fields = auth as Record<string, unknown>
  const text = (k: keyof TlsClientAuth) =>
    typeof fields[k] === 'string' ? (fields[k] as string) : ''
  return {
    certPresented: text('certPresented'),
    certVerified: text('certVerified'),
    certRevoked: text('certRevoked'),
    certIssuerSKI: text('certIssuerSKI'),
    certIssuerDNRFC2253: text('certIssuerDNRFC2253'),
    certSubjectDNRFC2253: text('certSubjectDNRFC2253'),
    certNotBefore: text('certNotBefore'),
    certNotAfter: text('certNotAfter'),
  }
}

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** A certificate time as OpenSSL prints it (`Dec 22 19:39:00 2018 GMT`), in epoch milliseconds. */
export function parseCertificateTime(text: string): number | undefined {
  const m = /^([A-Z][a-z]{2}) +(\d{1,2}) (\d{2}):(\d{2}):(\d{2})(?:\.\d+)? (\d{4}) GMT$/.exec(
    text.trim(),
  )
  const month = m ? months.indexOf(m[1]!) : -1
  if (!m || month < 0) return undefined
  return Date.UTC(Number(m[6]), month, Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]))
}
