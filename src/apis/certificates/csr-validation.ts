/** Upstream's validation of CertificateSigningRequest (pkg/apis/certificates/validation), for create and update. */
import type { KubeObject } from '../../apimachinery/types'
import {
  duplicate,
  forbidden,
  invalid,
  notSupported,
  required,
  type FieldCause,
} from '../../apimachinery/field-errors'
import { isDns1123Label, isDns1123Subdomain } from '../../apimachinery/field-formats'
import { keyUsages } from '../schema/certificates-v1'
import { parseCsrPem, type CertificateRequest } from '../../apimachinery/x509/csr'
import { parseCertificate } from '../../apimachinery/x509/authority'
import { pemBlocks } from '../../apimachinery/x509/pem'
import { specOf, statusOf } from './csr-object'

const legacySigner = 'kubernetes.io/legacy-unknown'
const statusValues = ['True', 'False', 'Unknown']
const trueOnly = new Set(['Approved', 'Denied', 'Failed'])
const requestDisplay = '[]byte{...}'

/** spec.request decoded from its base64 and parsed; the error is upstream's. */
export function requestOf(obj: KubeObject): { csr?: CertificateRequest; error?: string } {
  try {
    return { csr: parseCsrPem(atob(specOf(obj).request ?? '')) }
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) }
  }
}

export function validateCsr(obj: KubeObject): FieldCause[] {
  const spec = specOf(obj)
  const causes: FieldCause[] = []
  const parsed = requestOf(obj)
  if (parsed.error) causes.push(invalid('spec.request', spec.request, parsed.error, requestDisplay))
  causes.push(...validateSignerName('spec.signerName', spec.signerName ?? ''))
  if (spec.signerName === legacySigner)
    causes.push(
      invalid(
        'spec.signerName',
        spec.signerName,
        'the legacy signerName is not allowed via this API version',
      ),
    )
  if (spec.expirationSeconds !== undefined && spec.expirationSeconds < 600) {
    causes.push(
      invalid(
        'spec.expirationSeconds',
        spec.expirationSeconds,
        'may not specify a duration less than 600 seconds (10 minutes)',
      ),
    )
  }
  const usages = spec.usages ?? []
  if (!usages.length) causes.push(required('spec.usages'))
  const seen = new Set<string>()
  usages.forEach((u, i) => {
    if (!(keyUsages as readonly string[]).includes(u))
      causes.push(notSupported(`spec.usages[${i}]`, u, keyUsages))
    if (seen.has(u)) causes.push(duplicate(`spec.usages[${i}]`, u))
    seen.add(u)
  })
  causes.push(...validateStatus(obj))
  return causes
}

/** Upstream's ValidateSignerName: `<domain with a dot>/<path of subdomains>`. */
function validateSignerName(field: string, name: string): FieldCause[] {
  if (!name) return [required(field)]
  const segments = name.split('/')
  if (segments.length !== 2)
    return [
      invalid(
        field,
        name,
        "must be a fully qualified domain and path of the form 'example.com/signer-name'",
      ),
    ]
  const [domain, path] = segments as [string, string]
  const causes: FieldCause[] = []
  const labels = domain.split('.')
  for (const label of labels) {
    const errs = isDns1123Label(label)
    if (errs.length) {
      for (const e of errs) causes.push(invalid(field, domain, `validating label "${label}": ${e}`))
      break
    }
  }
  if (labels.length < 2)
    causes.push(
      invalid(field, domain, 'should be a domain with at least two segments separated by dots'),
    )
  for (const component of path.split('.')) {
    const errs = isDns1123Subdomain(component)
    if (errs.length) {
      for (const e of errs)
        causes.push(invalid(field, path, `validating component "${component}": ${e}`))
      break
    }
  }
  return causes
}

function validateStatus(obj: KubeObject): FieldCause[] {
  const status = statusOf(obj)
  const causes: FieldCause[] = []
  const seen = new Set<string>()
  ;(status.conditions ?? []).forEach((c, i) => {
    const at = `status.conditions[${i}]`
    if (!c.type) causes.push(required(`${at}.type`))
    if (!statusValues.includes(c.status))
      causes.push(notSupported(`${at}.status`, c.status ?? '', statusValues))
    else if (trueOnly.has(c.type) && c.status !== 'True')
      causes.push(notSupported(`${at}.status`, c.status, ['True']))
    if (seen.has(c.type)) causes.push(duplicate(`${at}.type`, c.type))
    seen.add(c.type)
  })
  if (seen.has('Approved') && seen.has('Denied'))
    causes.push(
      invalid(
        'status.conditions',
        status.conditions,
        'Approved and Denied conditions are mutually exclusive',
        '[]certificates.CertificateSigningRequestCondition{...}',
      ),
    )
  if (status.certificate) {
    const problem = certificateProblem(status.certificate)
    if (problem) causes.push(invalid('status.certificate', '<certificate data>', problem))
  }
  return causes
}

function certificateProblem(b64: string): string | undefined {
  let text: string
  try {
    text = atob(b64)
  } catch {
    return 'must contain at least one CERTIFICATE PEM block'
  }
  const blocks = pemBlocks(text)
  if (!blocks.length) return 'must contain at least one CERTIFICATE PEM block'
  for (const b of blocks) {
    if (b.label !== 'CERTIFICATE')
      return `only CERTIFICATE PEM blocks are allowed, found "${b.label}"`
    if (b.headers) return 'no PEM block headers are permitted'
    try {
      parseCertificate(b.der)
    } catch (err) {
      return `x509: malformed certificate (${err instanceof Error ? err.message : String(err)})`
    }
  }
  return undefined
}

/** Update rules: an issued certificate never changes, and Approved, Denied and Failed conditions are never removed. */
export function validateCsrUpdate(old: KubeObject, next: KubeObject): FieldCause[] {
  const causes: FieldCause[] = []
  const before = statusOf(old)
  const after = statusOf(next)
  if (before.certificate && before.certificate !== after.certificate)
    causes.push(
      forbidden('status.certificate', 'updates may not modify existing certificate content'),
    )
  for (const type of ['Approved', 'Denied', 'Failed']) {
    const count = (s: typeof before) => (s.conditions ?? []).filter((c) => c.type === type).length
    if (count(after) < count(before))
      causes.push(
        forbidden('status.conditions', `updates may not remove a condition of type "${type}"`),
      )
  }
  return causes
}
