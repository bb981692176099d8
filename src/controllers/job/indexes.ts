import type { KubeObject } from '../../apimachinery/types'
import { completionIndexOf } from './pods'

/** The completion indexes of an Indexed Job's succeeded pods. */
export function succeededIndexes(
  succeeded: readonly KubeObject[],
  completions: number,
): Set<number> {
  const out = new Set<number>()
  for (const pod of succeeded) {
    const i = completionIndexOf(pod, completions)
    if (i !== undefined) out.add(i)
  }
  return out
}

/** status.completedIndexes: ascending intervals such as "0-2,5". */
export function formatIndexes(indexes: ReadonlySet<number>): string {
  const sorted = [...indexes].sort((a, b) => a - b)
  const parts: string[] = []
  for (let i = 0; i < sorted.length; ) {
    let j = i
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++
    parts.push(i === j ? `${sorted[i]}` : `${sorted[i]}-${sorted[j]}`)
    i = j + 1
  }
  return parts.join(',')
}

/** The lowest indexes that have neither succeeded nor an active pod, at most `count` of them. */
export function pendingIndexes(
  completions: number,
  done: ReadonlySet<number>,
  active: readonly KubeObject[],
  count: number,
): number[] {
  const busy = new Set(active.map((p) => completionIndexOf(p, completions)))
  const out: number[] = []
  for (let i = 0; i < completions && out.length < count; i++)
    if (!done.has(i) && !busy.has(i)) out.push(i)
  return out
}
