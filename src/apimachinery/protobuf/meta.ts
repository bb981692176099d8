import { bool, int, list, map, msg, str, strs, time, type Table } from './schema'

/** meta/v1 messages shared by every kind. */

export const OwnerReference: Table = {
  5: str('apiVersion', { keep: true }),
  1: str('kind', { keep: true }),
  3: str('name', { keep: true }),
  4: str('uid', { keep: true }),
  6: bool('controller', { keep: true }),
  7: bool('blockOwnerDeletion', { keep: true }),
}

export const ObjectMeta: Table = {
  1: str('name'),
  2: str('generateName'),
  3: str('namespace'),
  4: str('selfLink'),
  5: str('uid'),
  6: str('resourceVersion'),
  7: int('generation'),
  // Always present in JSON (a struct), null when zero: the typed JSON encoders send the same.
  8: time('creationTimestamp'),
  9: time('deletionTimestamp'),
  10: int('deletionGracePeriodSeconds', { keep: true }),
  11: map('labels'),
  12: map('annotations'),
  13: list('ownerReferences', () => OwnerReference),
  14: strs('finalizers'),
}

export const LabelSelectorRequirement: Table = {
  1: str('key', { keep: true }),
  2: str('operator', { keep: true }),
  3: strs('values'),
}

export const LabelSelector: Table = {
  1: map('matchLabels'),
  2: list('matchExpressions', () => LabelSelectorRequirement),
}

export const FieldSelectorRequirement: Table = LabelSelectorRequirement

export const Preconditions: Table = {
  1: str('uid', { keep: true }),
  2: str('resourceVersion', { keep: true }),
}

export const DeleteOptions: Table = {
  1: int('gracePeriodSeconds', { keep: true }),
  2: msg('preconditions', () => Preconditions),
  3: bool('orphanDependents', { keep: true }),
  4: str('propagationPolicy', { keep: true }),
  5: strs('dryRun'),
  6: bool('ignoreStoreReadErrorWithClusterBreakingPotential', { keep: true }),
}
