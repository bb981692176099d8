/**
 * The web-platform globals the core (apimachinery, agent-protocol, apis, printers) may use: the
 * ones workerd and Node 20 both provide. The core is compiled with these alone (tsconfig.core.json),
 * so nothing Worker- or Node-specific can enter it; the Worker and Node sides get the full
 * declarations of their platform.
 */

type WebBytes = ArrayBuffer | ArrayBufferView

interface WebCryptoKey {
  readonly type: string
}

type CryptoKey = WebCryptoKey

/** An algorithm by name, with its parameters (HMAC, ECDSA, Ed25519, RSASSA-PKCS1-v1_5). */
type WebAlgorithm = string | { name: string; [parameter: string]: unknown }

interface WebSubtleCrypto {
  importKey(
    format: 'raw' | 'spki' | 'pkcs8',
    keyData: WebBytes,
    algorithm: WebAlgorithm,
    extractable: boolean,
    keyUsages: ('sign' | 'verify')[],
  ): Promise<WebCryptoKey>
  sign(algorithm: WebAlgorithm, key: WebCryptoKey, data: WebBytes): Promise<ArrayBuffer>
  verify(
    algorithm: WebAlgorithm,
    key: WebCryptoKey,
    signature: WebBytes,
    data: WebBytes,
  ): Promise<boolean>
  digest(
    algorithm: 'SHA-1' | 'SHA-256' | 'SHA-384' | 'SHA-512',
    data: WebBytes,
  ): Promise<ArrayBuffer>
}

declare var crypto: {
  readonly subtle: WebSubtleCrypto
  getRandomValues<T extends Uint8Array>(array: T): T
  randomUUID(): string
}

declare class TextEncoder {
  encode(input?: string): Uint8Array
}

declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean })
  decode(input?: WebBytes, options?: { stream?: boolean }): string
}

declare function atob(data: string): string
declare function btoa(data: string): string
declare function structuredClone<T>(value: T): T

declare class URL {
  constructor(url: string, base?: string)
  readonly protocol: string
  readonly host: string
  readonly hostname: string
  readonly pathname: string
  readonly search: string
  readonly hash: string
  readonly username: string
  readonly password: string
}
