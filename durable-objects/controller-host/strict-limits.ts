import type { PassReport } from '../../src/controllers/runtime/runner'
import { productionLimits } from '../../src/limits/production'
import { limitPassed, type LimitFigures } from '../../src/limits/strict'

/** Records a pass's CPU and the host's cache size after it, and reports either past its production limit. */
export function recordPass(
  figures: LimitFigures,
  where: string,
  report: PassReport,
  cacheBytes: number,
): void {
  const cpuMs = Math.round(report.cpuMs ?? 0)
  figures.maxPassCpuMs = Math.max(figures.maxPassCpuMs, cpuMs)
  figures.maxCacheBytes = Math.max(figures.maxCacheBytes, cacheBytes)
  if (cpuMs > productionLimits.cpuMs)
    limitPassed(figures, 'cpuMs', where, `a pass computed for ${cpuMs} ms`)
  if (cacheBytes > productionLimits.isolateBytes)
    limitPassed(figures, 'isolateBytes', where, `caches hold ${cacheBytes} serialized bytes`)
}
