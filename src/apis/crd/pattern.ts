import { RE2JS } from 're2js'

let cache = new Map<string, RE2JS | Error>()

/**
 * A schema `pattern` compiled as Go's regexp does it (RE2 syntax, linear-time matching), so no
 * pattern can make a store backtrack for long, and upstream's syntax errors are reported as is.
 */
export function compilePattern(pattern: string): RE2JS | Error {
  let re = cache.get(pattern)
  if (re === undefined) {
    try {
      re = RE2JS.compile(pattern)
    } catch (e) {
      re = e instanceof Error ? e : new Error(String(e))
    }
    if (cache.size > 1000) cache = new Map()
    cache.set(pattern, re)
  }
  return re
}
