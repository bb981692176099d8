/**
 * Rewrites the object of each newline-delimited watch event, for the API views (events.k8s.io/v1,
 * autoscaling/v1) that serve another version's objects.
 */
export function rewriteWatchObjects(
  convert: (object: Record<string, unknown>) => unknown,
): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder()
  const encoder = new TextEncoder()
  let pending = ''
  const line = (text: string) => {
    if (!text.trim()) return text
    const event = JSON.parse(text) as { type: string; object: Record<string, unknown> }
    return JSON.stringify({ ...event, object: convert(event.object) })
  }
  return new TransformStream({
    transform(chunk, controller) {
      pending += decoder.decode(chunk, { stream: true })
      const lines = pending.split('\n')
      pending = lines.pop() ?? ''
      if (lines.length) controller.enqueue(encoder.encode(lines.map(line).join('\n') + '\n'))
    },
    flush(controller) {
      if (pending) controller.enqueue(encoder.encode(line(pending)))
    },
  })
}
