/**
 * Integer fields that are int64 in the upstream Go types. The schema DSL has a single 'integer'
 * scalar, and upstream OpenAPI marks every other integer of the served types as int32, so the
 * field name is enough to tell them apart.
 */
export const int64Fields: ReadonlySet<string> = new Set([
  'activeDeadlineSeconds',
  'deletionGracePeriodSeconds',
  'expirationSeconds',
  'fsGroup',
  'generation',
  'gid',
  'gracePeriodSeconds',
  'observedGeneration',
  'remainingItemCount',
  'revision',
  'runAsGroup',
  'runAsUser',
  'seconds',
  'sizeBytes',
  'startingDeadlineSeconds',
  'supplementalGroups',
  'terminationGracePeriodSeconds',
  'tolerationSeconds',
  'uid',
])
