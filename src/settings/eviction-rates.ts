/** How fast nodes may newly be tainted NoExecute for being not ready or unreachable, as kube-controller-manager's flags set it. */
export interface EvictionRateOptions {
  /** nodes per second in a healthy zone (`--node-eviction-rate`, 0.1) */
  evictionRate: number
  /** nodes per second in a partially disrupted zone larger than `largeClusterSizeThreshold` (`--secondary-node-eviction-rate`, 0.01) */
  secondaryEvictionRate: number
  /** the share of not-ready nodes (with more than 2 of them) that makes a zone partially disrupted (`--unhealthy-zone-threshold`, 0.55) */
  unhealthyZoneThreshold: number
  /** a partially disrupted zone of at most this many nodes stops evicting altogether (`--large-cluster-size-threshold`, 50) */
  largeClusterSizeThreshold: number
}

export const DEFAULT_EVICTION_RATES: EvictionRateOptions = {
  evictionRate: 0.1,
  secondaryEvictionRate: 0.01,
  unhealthyZoneThreshold: 0.55,
  largeClusterSizeThreshold: 50,
}

/** The launcher's settings for the rate limit; a value that is unset or out of range keeps upstream's default. */
export interface EvictionRateSettings {
  EDGEPLANE_NODE_EVICTION_RATE?: string
  EDGEPLANE_SECONDARY_NODE_EVICTION_RATE?: string
  EDGEPLANE_UNHEALTHY_ZONE_THRESHOLD?: string
  EDGEPLANE_LARGE_CLUSTER_SIZE_THRESHOLD?: string
}

export function evictionRatesFrom(env: EvictionRateSettings): EvictionRateOptions {
  const read = (value: string | undefined, fallback: number, ok: (n: number) => boolean) => {
    const n = value === undefined || value.trim() === '' ? NaN : Number(value)
    return Number.isFinite(n) && ok(n) ? n : fallback
  }
  const d = DEFAULT_EVICTION_RATES
  return {
    evictionRate: read(env.EDGEPLANE_NODE_EVICTION_RATE, d.evictionRate, (n) => n >= 0),
    secondaryEvictionRate: read(
      env.EDGEPLANE_SECONDARY_NODE_EVICTION_RATE,
      d.secondaryEvictionRate,
      (n) => n >= 0,
    ),
    unhealthyZoneThreshold: read(
      env.EDGEPLANE_UNHEALTHY_ZONE_THRESHOLD,
      d.unhealthyZoneThreshold,
      (n) => n > 0 && n <= 1,
    ),
    largeClusterSizeThreshold: read(
      env.EDGEPLANE_LARGE_CLUSTER_SIZE_THRESHOLD,
      d.largeClusterSizeThreshold,
      (n) => Number.isInteger(n) && n >= 0,
    ),
  }
}
