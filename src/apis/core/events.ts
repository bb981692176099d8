/** core/v1 Event: removed a while after its last write, and written by a node only about itself or its pods. */
import type { KubeObject } from '../../apimachinery/types'
import type { KindStrategy } from '../kind-strategy'
import { eventSubject, type NodeWriter } from '../node-restriction'

/** NodeRestriction: the event, before and after the write, is about the subject the Worker checked. */
function nodeWriteRefusal(
  writer: NodeWriter,
  old: KubeObject | undefined,
  obj: KubeObject,
): string | undefined {
  const about = (e: KubeObject) => eventSubject(e) === writer.eventSubject
  if (writer.eventSubject && about(obj) && (!old || about(old))) return undefined
  return `node "${writer.node}" can only ${old ? 'update' : 'create'} events about itself or pods bound to it`
}

export const eventStrategy: KindStrategy = {
  nodeWriteRefusal,
  expires: true,
}

/** events.k8s.io/v1 Events are the core Events seen in that group's terms: they expire alike. */
export const eventsV1Strategy: KindStrategy = { expires: true }
