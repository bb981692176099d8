/**
 * Public-key and signature algorithms of X.509 and PKCS#10, as WebCrypto names them, and the
 * conversion between X.509's DER ECDSA signatures and WebCrypto's fixed-size ones.
 */
import {
  children,
  concat,
  DerError,
  expect,
  oid,
  readDer,
  readOid,
  sequence,
  tag,
  unsignedInteger,
  type Der,
} from './der'

export const oids = {
  ecPublicKey: '1.2.840.10045.2.1',
  rsaEncryption: '1.2.840.113549.1.1.1',
  ed25519: '1.3.101.112',
  p256: '1.2.840.10045.3.1.7',
  p384: '1.3.132.0.34',
  p521: '1.3.132.0.35',
  ecdsaSha256: '1.2.840.10045.4.3.2',
  ecdsaSha384: '1.2.840.10045.4.3.3',
  ecdsaSha512: '1.2.840.10045.4.3.4',
  rsaSha256: '1.2.840.113549.1.1.11',
  rsaSha384: '1.2.840.113549.1.1.12',
  rsaSha512: '1.2.840.113549.1.1.13',
} as const

const curves: Record<string, { name: string; size: number }> = {
  [oids.p256]: { name: 'P-256', size: 32 },
  [oids.p384]: { name: 'P-384', size: 48 },
  [oids.p521]: { name: 'P-521', size: 66 },
}

export type KeyAlgorithm =
  | { name: 'ECDSA'; namedCurve: string; size: number }
  | { name: 'RSASSA-PKCS1-v1_5'; hash: string }
  | { name: 'Ed25519' }

/** A SubjectPublicKeyInfo's algorithm, as WebCrypto imports it. */
export function keyAlgorithmOf(spki: Der): KeyAlgorithm {
  const [alg] = children(expect(spki, tag.sequence, 'subjectPublicKeyInfo'))
  const [id, params] = children(expect(alg, tag.sequence, 'algorithm'))
  const name = readOid(id!)
  if (name === oids.ecPublicKey) {
    const curve = params && params.tag === tag.oid ? curves[readOid(params)] : undefined
    if (!curve) throw new DerError('unsupported elliptic curve (supported: P-256, P-384, P-521)')
    return { name: 'ECDSA', namedCurve: curve.name, size: curve.size }
  }
  if (name === oids.rsaEncryption) return { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }
  if (name === oids.ed25519) return { name: 'Ed25519' }
  throw new DerError(`unsupported public key algorithm ${name}`)
}

const signatureHashes: Record<string, { key: string; hash?: string }> = {
  [oids.ecdsaSha256]: { key: 'ECDSA', hash: 'SHA-256' },
  [oids.ecdsaSha384]: { key: 'ECDSA', hash: 'SHA-384' },
  [oids.ecdsaSha512]: { key: 'ECDSA', hash: 'SHA-512' },
  [oids.rsaSha256]: { key: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
  [oids.rsaSha384]: { key: 'RSASSA-PKCS1-v1_5', hash: 'SHA-384' },
  [oids.rsaSha512]: { key: 'RSASSA-PKCS1-v1_5', hash: 'SHA-512' },
  [oids.ed25519]: { key: 'Ed25519' },
}

/**
 * Verifies a signature made by the holder of `spki` over `data`, the signature algorithm given as
 * an AlgorithmIdentifier. Resolves false for a wrong signature; throws for an unsupported algorithm.
 */
export async function verifySignature(
  spki: Der,
  algorithm: Der,
  data: Uint8Array,
  signature: Uint8Array,
): Promise<boolean> {
  const sigAlg = readOid(children(expect(algorithm, tag.sequence, 'signatureAlgorithm'))[0]!)
  const sig = signatureHashes[sigAlg]
  const keyAlg = keyAlgorithmOf(spki)
  if (!sig) throw new DerError(`unsupported signature algorithm ${sigAlg}`)
  if (sig.key !== keyAlg.name)
    throw new DerError(`signature algorithm ${sigAlg} does not match the public key`)
  const importAlg =
    keyAlg.name === 'RSASSA-PKCS1-v1_5' ? { name: keyAlg.name, hash: sig.hash! } : keyAlg
  const key = await crypto.subtle.importKey('spki', spki.raw, importAlg, false, ['verify'])
  if (keyAlg.name === 'ECDSA') {
    let raw: Uint8Array
    try {
      raw = ecdsaDerToRaw(signature, keyAlg.size)
    } catch {
      return false
    }
    return crypto.subtle.verify({ name: 'ECDSA', hash: sig.hash! }, key, raw, data)
  }
  return crypto.subtle.verify(importAlg, key, signature, data)
}

/** A DER ECDSA-Sig-Value (SEQUENCE { r, s }) as WebCrypto's r‖s. */
export function ecdsaDerToRaw(der: Uint8Array, size: number): Uint8Array {
  const [r, s] = children(expect(readDer(der), tag.sequence, 'ECDSA signature'))
  const fixed = (i: Der | undefined) => {
    const v = expect(i, tag.integer, 'ECDSA signature').value
    const trimmed = v[0] === 0 ? v.subarray(1) : v
    if (trimmed.length > size) throw new DerError('ECDSA signature value too long')
    const out = new Uint8Array(size)
    out.set(trimmed, size - trimmed.length)
    return out
  }
  return concat([fixed(r), fixed(s)])
}

/** WebCrypto's r‖s as a DER ECDSA-Sig-Value. */
export function ecdsaRawToDer(raw: Uint8Array): Uint8Array {
  const half = raw.length / 2
  return sequence(unsignedInteger(raw.subarray(0, half)), unsignedInteger(raw.subarray(half)))
}

/** The AlgorithmIdentifier a key of this algorithm signs certificates with (SHA-256 for ECDSA P-256 and RSA). */
export function signatureAlgorithmFor(alg: KeyAlgorithm): {
  identifier: Uint8Array
  params: { name: string; hash?: string }
} {
  if (alg.name === 'ECDSA') {
    const hash =
      alg.namedCurve === 'P-384' ? 'SHA-384' : alg.namedCurve === 'P-521' ? 'SHA-512' : 'SHA-256'
    const id =
      hash === 'SHA-384'
        ? oids.ecdsaSha384
        : hash === 'SHA-512'
          ? oids.ecdsaSha512
          : oids.ecdsaSha256
    return { identifier: sequence(oid(id)), params: { name: 'ECDSA', hash } }
  }
  if (alg.name === 'RSASSA-PKCS1-v1_5')
    return {
      identifier: sequence(oid(oids.rsaSha256), new Uint8Array([tag.null, 0])),
      params: { name: alg.name },
    }
  return { identifier: sequence(oid(oids.ed25519)), params: { name: 'Ed25519' } }
}
