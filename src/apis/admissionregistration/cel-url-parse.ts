/**
 * URLs as Go's net/url parses them (url.Parse and url.ParseRequestURI), with its error messages,
 * and the parts Kubernetes' CEL URL library reads: scheme, host, hostname, port, escaped path
 * and query. The WHATWG URL parser differs (it normalises hosts and paths), so it is not used.
 */

export interface GoURL {
  scheme: string
  opaque: string
  host: string
  path: string
  rawPath: string
  rawQuery: string
}

class URLError extends Error {}

const isHex = (c: string | undefined) => !!c && /^[0-9a-fA-F]$/.test(c)
const isAlnum = (c: string) => /^[A-Za-z0-9]$/.test(c)

type Mode = 'path' | 'host' | 'query'

/** shouldEscape: whether a byte must be %-escaped in this part of a URL. */
function shouldEscape(c: string, mode: Mode): boolean {
  if (isAlnum(c) || '-_.~'.includes(c)) return false
  if (mode === 'host') return !'!$&\'()*+,;=:[]<>"'.includes(c)
  if (mode === 'path') return !'$&+,/:;=@'.includes(c)
  return true
}

/** unescape: %XX sequences decoded (and `+` as a space in a query), Go's errors kept. */
function unescape(s: string, mode: Mode): string {
  const bytes: number[] = []
  const encoder = new TextEncoder()
  for (let i = 0; i < s.length; ) {
    const c = s[i]!
    if (c === '%') {
      if (!isHex(s[i + 1]) || !isHex(s[i + 2]))
        throw new URLError(`invalid URL escape ${JSON.stringify(s.slice(i, i + 3))}`)
      const byte = parseInt(s.slice(i + 1, i + 3), 16)
      if (mode === 'host' && byte < 0x80 && s.slice(i, i + 3) !== '%25')
        throw new URLError(`invalid URL escape ${JSON.stringify(s.slice(i, i + 3))}`)
      bytes.push(byte)
      i += 3
      continue
    }
    if (mode === 'host' && c.charCodeAt(0) < 0x80 && shouldEscape(c, 'host'))
      throw new URLError(`invalid character ${JSON.stringify(c)} in host name`)
    if (mode === 'query' && c === '+') bytes.push(0x20)
    else bytes.push(...encoder.encode(c))
    i++
  }
  return new TextDecoder().decode(new Uint8Array(bytes))
}

function escape(s: string, mode: Mode): string {
  let out = ''
  for (const byte of new TextEncoder().encode(s)) {
    const c = String.fromCharCode(byte)
    out +=
      byte < 0x80 && !shouldEscape(c, mode)
        ? c
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
  }
  return out
}

const validOptionalPort = (port: string) => port === '' || /^:[0-9]*$/.test(port)

function parseHost(host: string): string {
  if (host.startsWith('[')) {
    const end = host.lastIndexOf(']')
    if (end < 0) throw new URLError("missing ']' in host")
    const colonPort = host.slice(end + 1)
    if (!validOptionalPort(colonPort))
      throw new URLError(`invalid port ${JSON.stringify(colonPort)} after host`)
  } else {
    const colon = host.lastIndexOf(':')
    if (colon >= 0 && !validOptionalPort(host.slice(colon)))
      throw new URLError(`invalid port ${JSON.stringify(host.slice(colon))} after host`)
  }
  return unescape(host, 'host')
}

function parseAuthority(authority: string): string {
  const at = authority.lastIndexOf('@')
  const host = parseHost(authority.slice(at + 1))
  if (at >= 0 && !/^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(authority.slice(0, at)))
    throw new URLError('net/url: invalid userinfo')
  return host
}

function getScheme(raw: string): [string, string] {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!
    if (/[A-Za-z]/.test(c)) continue
    if (/[0-9+\-.]/.test(c)) {
      if (i === 0) return ['', raw]
      continue
    }
    if (c === ':') {
      if (i === 0) throw new URLError('missing protocol scheme')
      return [raw.slice(0, i), raw.slice(i + 1)]
    }
    return ['', raw]
  }
  return ['', raw]
}

function parse(raw: string, viaRequest: boolean): GoURL {
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(raw)) throw new URLError('net/url: invalid control character in URL')
  if (raw === '' && viaRequest) throw new URLError('empty url')
  const url: GoURL = { scheme: '', opaque: '', host: '', path: '', rawPath: '', rawQuery: '' }
  if (raw === '*') return { ...url, path: '*' }
  let [scheme, rest] = getScheme(raw)
  url.scheme = scheme.toLowerCase()
  if (rest.endsWith('?') && rest.split('?').length === 2) rest = rest.slice(0, -1)
  else {
    const q = rest.indexOf('?')
    if (q >= 0) {
      url.rawQuery = rest.slice(q + 1)
      rest = rest.slice(0, q)
    }
  }
  if (!rest.startsWith('/')) {
    if (url.scheme) return { ...url, opaque: rest }
    if (viaRequest) throw new URLError('invalid URI for request')
    if ((rest.split('/')[0] ?? '').includes(':'))
      throw new URLError('first path segment in URL cannot contain colon')
  }
  if ((url.scheme || (!viaRequest && !rest.startsWith('///'))) && rest.startsWith('//')) {
    let authority = rest.slice(2)
    rest = ''
    const slash = authority.indexOf('/')
    if (slash >= 0) {
      rest = authority.slice(slash)
      authority = authority.slice(0, slash)
    }
    url.host = parseAuthority(authority)
  }
  url.path = unescape(rest, 'path')
  url.rawPath = escape(url.path, 'path') === rest ? '' : rest
  return url
}

const wrap = (raw: string, run: () => GoURL): GoURL => {
  try {
    return run()
  } catch (err) {
    if (err instanceof URLError) throw new Error(`parse ${JSON.stringify(raw)}: ${err.message}`)
    throw err
  }
}

/** url.ParseRequestURI: an absolute URL or an absolute path, no fragment. */
export const parseRequestURI = (raw: string): GoURL => wrap(raw, () => parse(raw, true))

/** url.Parse: the fragment cut off first. */
export function parseURL(raw: string): GoURL {
  const hash = raw.indexOf('#')
  return wrap(raw, () => parse(hash >= 0 ? raw.slice(0, hash) : raw, false))
}

function splitHostPort(hostPort: string): [string, string] {
  let host = hostPort
  let port = ''
  const colon = host.lastIndexOf(':')
  if (colon >= 0 && validOptionalPort(host.slice(colon))) {
    port = host.slice(colon + 1)
    host = host.slice(0, colon)
  }
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1)
  return [host, port]
}

export const hostname = (u: GoURL) => splitHostPort(u.host)[0]
export const port = (u: GoURL) => splitHostPort(u.host)[1]

/** URL.EscapedPath: the path as written when that is a valid encoding of it, else escaped. */
export function escapedPath(u: GoURL): string {
  if (u.rawPath && /^[A-Za-z0-9\-._~!$&'()*+,;=:@[\]%/]*$/.test(u.rawPath)) {
    try {
      if (unescape(u.rawPath, 'path') === u.path) return u.rawPath
    } catch {
      // fall through to escaping the path
    }
  }
  return u.path === '*' ? '*' : escape(u.path, 'path')
}

/** URL.Query (url.ParseQuery): pairs that do not decode, or hold a `;`, are left out. */
export function query(u: GoURL): Map<string, string[]> {
  const out = new Map<string, string[]>()
  for (const pair of u.rawQuery.split('&')) {
    if (!pair || pair.includes(';')) continue
    const eq = pair.indexOf('=')
    try {
      const key = unescape(eq >= 0 ? pair.slice(0, eq) : pair, 'query')
      const value = unescape(eq >= 0 ? pair.slice(eq + 1) : '', 'query')
      out.set(key, [...(out.get(key) ?? []), value])
    } catch {
      continue
    }
  }
  return out
}
