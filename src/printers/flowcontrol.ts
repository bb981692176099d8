/**
 * Tables for flowcontrol.apiserver.k8s.io FlowSchemas and PriorityLevelConfigurations (columns of
 * upstream's printers; FlowSchemas listed by matching precedence, then name, as upstream lists them).
 */
import type { KubeObject } from '../apimachinery/types'
import { asRecord, isJsonObject } from '../apimachinery/json-value'
import { ageColumn, column, nameColumn, objectAge, objectName, type Printer } from './columns'

const precedence = (o: KubeObject): number => {
  const p = asRecord(o.spec).matchingPrecedence
  return typeof p === 'number' ? p : 0
}

const byteOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** The Dangling condition's status, `?` when the FlowSchema has none yet. */
function missingLevel(obj: KubeObject): string {
  const conditions = asRecord(obj.status).conditions
  const dangling = (Array.isArray(conditions) ? conditions : []).find(
    (c) => isJsonObject(c) && c.type === 'Dangling',
  ) as { status?: string } | undefined
  return dangling ? String(dangling.status ?? '') : '?'
}

export const flowSchemaPrinter: Printer = {
  columns: [
    nameColumn,
    column(
      'PriorityLevel',
      'string',
      '`name` is the name of the priority level configuration being referenced Required.',
    ),
    column(
      'MatchingPrecedence',
      'string',
      '`matchingPrecedence` is used to choose among the FlowSchemas that match a given request. The chosen FlowSchema is among those with the numerically lowest (which we take to be logically highest) MatchingPrecedence.  Each MatchingPrecedence value must be ranged in [1,10000]. Note that if the precedence is not specified, it will be set to 1000 as default.',
    ),
    column(
      'DistinguisherMethod',
      'string',
      '`distinguisherMethod` defines how to compute the flow distinguisher for requests that match this schema. `nil` specifies that the distinguisher is disabled and thus will always be the empty string.',
    ),
    ageColumn,
    column('MissingPL', 'string', 'references a broken or non-existent PriorityLevelConfiguration'),
  ],
  cells(obj, now) {
    const spec = asRecord(obj.spec)
    const method = asRecord(spec.distinguisherMethod).type
    return [
      objectName(obj),
      String(asRecord(spec.priorityLevelConfiguration).name ?? ''),
      precedence(obj),
      isJsonObject(spec.distinguisherMethod) ? String(method ?? '') : '<none>',
      objectAge(obj, now),
      missingLevel(obj),
    ]
  },
  order: (objects) =>
    [...objects].sort(
      (a, b) => precedence(a) - precedence(b) || byteOrder(objectName(a), objectName(b)),
    ),
}

export const priorityLevelPrinter: Printer = {
  columns: [
    nameColumn,
    column(
      'Type',
      'string',
      '`type` indicates whether this priority level is subject to limitation on request execution.  A value of `"Exempt"` means that requests of this priority level are not subject to a limit (and thus are never queued) and do not detract from the capacity made available to other priority levels.  A value of `"Limited"` means that (a) requests of this priority level _are_ subject to limits and (b) some of the server\'s limited capacity is made available exclusively to this priority level. Required.',
    ),
    column(
      'NominalConcurrencyShares',
      'string',
      '`nominalConcurrencyShares` (NCS) contributes to the computation of the NominalConcurrencyLimit (NominalCL) of this level. This is the number of execution seats available at this priority level.',
    ),
    column(
      'Queues',
      'string',
      '`queues` is the number of queues for this priority level. The queues exist independently at each apiserver. The value must be positive.  Setting it to 1 effectively precludes shufflesharding and thus makes the distinguisher method of associated flow schemas irrelevant.  This field has a default value of 64.',
    ),
    column(
      'HandSize',
      'string',
      '`handSize` is a small positive number that configures the shuffle sharding of requests into queues.',
    ),
    column(
      'QueueLengthLimit',
      'string',
      '`queueLengthLimit` is the maximum number of requests allowed to be waiting in a given queue of this priority level at a time; excess requests are rejected.  This value must be positive.  If not specified, it will be defaulted to 50.',
    ),
    ageColumn,
  ],
  cells(obj, now) {
    const spec = asRecord(obj.spec)
    let [shares, queues, handSize, queueLengthLimit]: unknown[] = [
      '<none>',
      '<none>',
      '<none>',
      '<none>',
    ]
    if (isJsonObject(spec.limited)) {
      shares = spec.limited.nominalConcurrencyShares ?? 0
      const queuing = asRecord(spec.limited.limitResponse).queuing
      if (isJsonObject(queuing))
        [queues, handSize, queueLengthLimit] = [
          queuing.queues ?? 0,
          queuing.handSize ?? 0,
          queuing.queueLengthLimit ?? 0,
        ]
    }
    return [
      objectName(obj),
      String(spec.type ?? ''),
      shares,
      queues,
      handSize,
      queueLengthLimit,
      objectAge(obj, now),
    ]
  },
}
