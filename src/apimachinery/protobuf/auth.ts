import { FieldSelectorRequirement, LabelSelectorRequirement, ObjectMeta } from './meta'
import { bool, int, list, msg, str, strs, type Table } from './schema'

/** authentication/v1 and authorization/v1 requests: `create token`, `auth whoami`, `auth can-i [--list]`. */

export const TokenRequest: Table = {
  1: msg('metadata', () => ObjectMeta),
  2: msg('spec', () => ({
    1: strs('audiences'),
    4: int('expirationSeconds', { keep: true }),
    // The protobuf field is named `uID`; its JSON name is `uid`.
    3: msg('boundObjectRef', () => ({
      1: str('kind'),
      2: str('apiVersion'),
      3: str('name'),
      4: str('uid'),
    })),
  })),
  3: msg('status', () => ({ 1: str('token', { keep: true }) })),
}

export const SelfSubjectReview: Table = {
  1: msg('metadata', () => ObjectMeta),
  2: msg('status', () => ({})),
}

const ResourceAttributes: Table = {
  1: str('namespace'),
  2: str('verb'),
  3: str('group'),
  4: str('version'),
  5: str('resource'),
  6: str('subresource'),
  7: str('name'),
  8: msg('fieldSelector', () => ({
    1: str('rawSelector'),
    2: list('requirements', () => FieldSelectorRequirement),
  })),
  9: msg('labelSelector', () => ({
    1: str('rawSelector'),
    2: list('requirements', () => LabelSelectorRequirement),
  })),
}

export const SelfSubjectAccessReview: Table = {
  1: msg('metadata', () => ObjectMeta),
  2: msg('spec', () => ({
    1: msg('resourceAttributes', () => ResourceAttributes),
    2: msg('nonResourceAttributes', () => ({ 1: str('path'), 2: str('verb') })),
  })),
  // `allowed` has no omitempty upstream, so the protobuf form always carries it.
  3: msg('status', () => ({
    1: bool('allowed', { keep: true }),
    4: bool('denied'),
    2: str('reason'),
    3: str('evaluationError'),
  })),
}

export const SelfSubjectRulesReview: Table = {
  1: msg('metadata', () => ObjectMeta),
  2: msg('spec', () => ({ 1: str('namespace') })),
  3: msg('status', () => ({})),
}
