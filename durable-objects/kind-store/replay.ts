import type { KubeObject } from '../../src/apimachinery/types'
import type { ObjectPredicate } from '../../src/apimachinery/object-filter'
import { watchFrameBytes } from '../../src/config'
import type { Log } from './log'
import { eventFor, eventLine, shownTo, type WatchSpec } from './watch-hub'
import { nodeScope } from './node-scope'

/**
 * What a new watcher is sent before live events, as newline-joined frames: the current objects as
 * ADDED (no resourceVersion, or "0"), or every change after the given resourceVersion. Runs
 * synchronously, so no write can slip between the replay and the live fan-out.
 */
export function* replay(
  log: Log,
  spec: WatchSpec,
  matches: ObjectPredicate | undefined,
  fromRv: number | undefined,
): Generator<string> {
  let frame: string[] = []
  let size = 0
  const push = function* (line: string): Generator<string> {
    frame.push(line)
    size += line.length
    if (size >= watchFrameBytes) {
      yield frame.join('\n')
      frame = []
      size = 0
    }
  }
  // A pods watch pinned to one node reads only that node's rows and changes (the node_name column).
  const scope = matches ? nodeScope(spec.resource, spec) : undefined
  if (fromRv === undefined) {
    const rowMatches = scope?.only ? undefined : matches
    for (const row of log.scanCurrent(spec.namespace, '', scope?.node)) {
      if (rowMatches && !rowMatches(JSON.parse(row.value) as KubeObject)) continue
      yield* push(eventLine('ADDED', shownTo(spec, row.value)))
    }
  } else {
    const filtered = spec.namespace !== undefined || matches !== undefined
    for (const change of log.changesAfter(fromRv, scope?.node)) {
      if (!filtered) {
        yield* push(eventLine(change.type, shownTo(spec, change.value)))
        continue
      }
      const object = JSON.parse(change.value) as KubeObject
      const prevText =
        change.type === 'MODIFIED' && change.prevRv ? log.valueAt(change.prevRv) : undefined
      const previous = prevText ? (JSON.parse(prevText) as KubeObject) : undefined
      const type = eventFor(spec, matches, { type: change.type, object, previous })
      if (type) yield* push(eventLine(type, shownTo(spec, change.value)))
    }
  }
  if (frame.length) yield frame.join('\n')
}
