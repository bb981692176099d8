const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }

/** --node-monitor-grace-period: how long a node may stay silent before it is marked Unknown. */
export const DEFAULT_GRACE_PERIOD_MS = 40_000

/**
 * EDGEPLANE_NODE_MONITOR_GRACE_PERIOD as milliseconds: plain seconds (`40`, `2.5`), or a duration
 * as kube-controller-manager's --node-monitor-grace-period takes it (`40s`, `500ms`, `1m30s`).
 * Undefined when unset, unparsable or not positive, so that the default applies instead.
 */
export function parseGracePeriod(value: string | undefined): number | undefined {
  const s = value?.trim() ?? ''
  if (s === '') return undefined
  let ms: number
  if (/^\d+(\.\d+)?$/.test(s)) ms = Number(s) * 1000
  else {
    if (!/^(\d+(\.\d+)?(ms|s|m|h))+$/.test(s)) return undefined
    ms = 0
    for (const [, n, , unit] of s.matchAll(/(\d+(\.\d+)?)(ms|s|m|h)/g))
      ms += Number(n) * units[unit]
  }
  return ms > 0 ? Math.round(ms) : undefined
}
