/**
 * Kubernetes' URL CEL library (k8s.io/apiserver/pkg/cel/library/urls.go): `url(string)` (an
 * absolute URI or an absolute path, as url.ParseRequestURI accepts; a fragment is allowed),
 * `isURL`, and `getScheme`, `getHost`, `getHostname`, `getPort`, `getEscapedPath`, `getQuery`.
 * Parsing follows Go's net/url (`cel-url-parse.ts`).
 */
import type { Environment } from '@marcbachmann/cel-js'
import {
  escapedPath,
  hostname,
  parseRequestURI,
  parseURL,
  port,
  query,
  type GoURL,
} from './cel-url-parse'

export class CelURL {
  constructor(
    readonly url: GoURL,
    readonly text: string,
  ) {}
}

function toURL(s: string): CelURL {
  try {
    parseRequestURI(s)
    return new CelURL(parseURL(s), s)
  } catch (err) {
    throw new Error(`URL parse error during conversion from string: ${(err as Error).message}`)
  }
}

const U = 'kubernetes.URL'

export function registerURLLibrary(env: Environment): void {
  env.registerType(U, CelURL)
  env.registerFunction(`url(string): ${U}`, toURL)
  env.registerFunction('isURL(string): bool', (s: string) => {
    try {
      parseRequestURI(s)
      return true
    } catch {
      return false
    }
  })
  env.registerFunction(`${U}.getScheme(): string`, (u: CelURL) => u.url.scheme)
  env.registerFunction(`${U}.getHost(): string`, (u: CelURL) => u.url.host)
  env.registerFunction(`${U}.getHostname(): string`, (u: CelURL) => hostname(u.url))
  env.registerFunction(`${U}.getPort(): string`, (u: CelURL) => port(u.url))
  env.registerFunction(`${U}.getEscapedPath(): string`, (u: CelURL) => escapedPath(u.url))
  env.registerFunction(`${U}.getQuery(): map<string, list<string>>`, (u: CelURL) =>
    Object.fromEntries(query(u.url)),
  )
  env.registerOperator(`${U} == ${U}`, (a: CelURL, b: CelURL) => a.text === b.text)
}
