/**
 * The path Ingress rules are matched against, read once as ingress-nginx normalizes a URI before
 * matching its locations: percent-decoded (an encoded `/` included), runs of slashes merged, and
 * `.` and `..` segments resolved (never above the root). So `/%6Cogin` and `//login` are matched
 * as `/login`. Undefined for malformed percent-encoding.
 */
export function ingressMatchPath(pathname: string): string | undefined {
  let decoded: string
  try {
    decoded = decodeURIComponent(pathname)
  } catch {
    return undefined
  }
  const out: string[] = []
  const segments = decoded.split('/')
  segments.forEach((segment, i) => {
    const last = i === segments.length - 1
    if (segment === '..') out.pop()
    if (segment === '.' || segment === '..') {
      if (last) out.push('')
      return
    }
    if (segment === '' && !last) return
    out.push(segment)
  })
  return '/' + out.join('/')
}
