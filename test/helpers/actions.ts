import type { Action } from '../../src/controllers/runtime/types'

const where = (namespace: string | undefined, name: string) =>
  namespace ? `${namespace}/${name}` : name

/**
 * One line per controller action, as the memory stores log writes: `<type> <plural> <namespace/>name`,
 * then what the action carries (a delete's grace, propagation and uid precondition, a patch's body,
 * an update's resourceVersion, a scale's replicas, a binding's node); an event is
 * `event <reason> <namespace/>name <type>`.
 */
export function describeAction(a: Action): string {
  return describe(a, false)
}

/** The first part of `describeAction`'s line: the action's type and what it acts on (an event's reason and object). */
export function briefAction(a: Action): string {
  return describe(a, true)
}

function describe(a: Action, brief: boolean): string {
  const head = (
    plural: string,
    namespace: string | undefined,
    name: string,
    subresource?: string,
  ) => `${a.type} ${plural} ${where(namespace, name)}${subresource ? `/${subresource}` : ''}`
  const line = (subject: string, detail: string[]) =>
    brief ? subject : [subject, ...detail].join(' ')
  switch (a.type) {
    case 'create':
    case 'update':
    case 'updateStatus': {
      const m = a.object.metadata
      return line(
        head(a.resource.plural, m.namespace, m.name ?? m.generateName ?? ''),
        m.resourceVersion ? [`rv=${m.resourceVersion}`] : [],
      )
    }
    case 'delete': {
      const detail: string[] = []
      if (a.gracePeriodSeconds !== undefined) detail.push(`grace=${a.gracePeriodSeconds}`)
      if (a.propagationPolicy) detail.push(a.propagationPolicy)
      if (a.preconditions?.uid) detail.push(`uid=${a.preconditions.uid}`)
      return line(head(a.resource.plural, a.namespace, a.name), detail)
    }
    case 'patch':
      return line(head(a.resource.plural, a.namespace, a.name, a.subresource), [
        JSON.stringify(a.patch),
      ])
    case 'scale':
      return line(head(a.resource.plural, a.namespace, a.name), [`replicas=${a.replicas}`])
    case 'bind':
      return line(head('pods', a.namespace, a.name), [`node=${a.nodeName}`])
    case 'finalize':
    case 'emptyNamespace':
      return line(head('namespaces', undefined, a.name), [])
    case 'purgeCustomResources':
      return line(head('customresourcedefinitions', undefined, a.crd.metadata.name ?? ''), [])
    case 'issueCertificate':
      return line(head(a.resource.plural, undefined, a.csr.metadata.name ?? ''), [])
    case 'event': {
      const m = a.involved.metadata
      return line(`event ${a.reason} ${where(m.namespace, m.name ?? '')}`, [a.eventType])
    }
  }
}
