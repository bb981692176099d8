/**
 * Structural schema of certificates.k8s.io/v1 CertificateSigningRequest
 * (k8s.io/api/certificates/v1) as of Kubernetes v1.32.
 */
import type { SchemaSet } from '../../apimachinery/schema-types'
import {
  bytes,
  enumOf,
  group,
  int,
  kind,
  listOf,
  mapOf,
  ref,
  required,
  str,
  struct,
  time,
} from './dsl'

const CERTIFICATES = 'io.k8s.api.certificates.v1.'

export const keyUsages = [
  'signing',
  'digital signature',
  'content commitment',
  'key encipherment',
  'key agreement',
  'data encipherment',
  'cert sign',
  'crl sign',
  'encipher only',
  'decipher only',
  'any',
  'server auth',
  'client auth',
  'code signing',
  'email protection',
  's/mime',
  'ipsec end system',
  'ipsec tunnel',
  'ipsec user',
  'timestamping',
  'ocsp signing',
  'microsoft sgc',
  'netscape sgc',
] as const

export const certificatesV1: SchemaSet = group(CERTIFICATES, {
  CertificateSigningRequest: kind(
    'CertificateSigningRequest objects provide a mechanism to obtain x509 certificates by submitting a certificate signing request, and having it asynchronously approved and issued.',
    {
      spec: required(
        ref(
          CERTIFICATES + 'CertificateSigningRequestSpec',
          'spec contains the certificate request, and is immutable after creation. Only the request, signerName, expirationSeconds, and usages fields can be set on creation. Other fields are derived by Kubernetes and cannot be modified by users.',
        ),
      ),
      status: ref(
        CERTIFICATES + 'CertificateSigningRequestStatus',
        'status contains information about whether the request is approved or denied, and the certificate issued by the signer, or the failure condition indicating signer failure.',
      ),
    },
  ),
  CertificateSigningRequestSpec: struct(
    {
      request: required(
        bytes(
          'request contains an x509 certificate signing request encoded in a "CERTIFICATE REQUEST" PEM block. When serialized as JSON or YAML, the data is additionally base64-encoded.',
        ),
      ),
      signerName: required(
        str('signerName indicates the requested signer, and is a qualified name.'),
      ),
      expirationSeconds: int(
        'expirationSeconds is the requested duration of validity of the issued certificate. The certificate signer may issue a certificate with a different validity duration so a client must check the delta between the notBefore and and notAfter fields in the issued certificate to determine the actual duration. The minimum valid value for expirationSeconds is 600, i.e. 10 minutes.',
      ),
      usages: listOf(
        enumOf(keyUsages),
        'usages specifies a set of key usages requested in the issued certificate.',
      ),
      username: str(
        'username contains the name of the user that created the CertificateSigningRequest. Populated by the API server on creation and immutable.',
      ),
      uid: str(
        'uid contains the uid of the user that created the CertificateSigningRequest. Populated by the API server on creation and immutable.',
      ),
      groups: listOf(
        str(),
        'groups contains group membership of the user that created the CertificateSigningRequest. Populated by the API server on creation and immutable.',
      ),
      extra: mapOf(
        listOf(str()),
        'extra contains extra attributes of the user that created the CertificateSigningRequest. Populated by the API server on creation and immutable.',
      ),
    },
    'CertificateSigningRequestSpec contains the certificate request.',
  ),
  CertificateSigningRequestStatus: struct(
    {
      conditions: listOf(ref(CERTIFICATES + 'CertificateSigningRequestCondition'), {
        listType: 'map',
        mapKeys: ['type'],
        description:
          'conditions applied to the request. Known conditions are "Approved", "Denied", and "Failed".',
      }),
      certificate: bytes(
        'certificate is populated with an issued certificate by the signer after an Approved condition is present. This field is set via the /status subresource. Once populated, this field is immutable.',
      ),
    },
    'CertificateSigningRequestStatus contains conditions used to indicate approved/denied/failed status of the request, and the issued certificate.',
  ),
  CertificateSigningRequestCondition: struct(
    {
      type: required(
        str('type of the condition. Known conditions are "Approved", "Denied", and "Failed".'),
      ),
      status: required(
        str(
          'status of the condition, one of True, False, Unknown. Approved, Denied, and Failed conditions may not be "False" or "Unknown".',
        ),
      ),
      reason: str('reason indicates a brief reason for the request state'),
      message: str(
        'message contains a human readable message with details about the request state',
      ),
      lastUpdateTime: time('lastUpdateTime is the time of the last update to this condition'),
      lastTransitionTime: time(
        "lastTransitionTime is the time the condition last transitioned from one status to another. If unset, when a new condition type is added or an existing condition's status is changed, the server defaults this to the current time.",
      ),
    },
    'CertificateSigningRequestCondition describes a condition of a CertificateSigningRequest object',
  ),
})
