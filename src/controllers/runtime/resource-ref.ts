/** Identifies a resource the way the registry does: core group is ''. */
export interface ResourceRef {
  group: string
  version: string
  plural: string
}
