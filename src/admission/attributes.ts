/**
 * What admission knows of a write, as k8s.io/apiserver's admission.Attributes: who makes it, the
 * operation, the resource and subresource, the namespace and name, the object sent and the one it
 * replaces, and whether it is a dry run. The API builds them once from the request it parsed
 * (src/api/http/admission-attributes.ts); the admission steps of its writes take them.
 */
import type { KubeObject } from '../apimachinery/types'
import type { UserInfo } from '../apimachinery/user-info'
import type { PatchType } from '../apis/store-options'
import type { RuleAttributes } from './webhooks/match'

export interface AdmissionAttributes extends RuleAttributes {
  user: UserInfo
  /** the object's name: the URL's, or for a create the body's ('' when it names none) */
  name: string
  /** a create's or update's object as sent; unset when the body does not decode to an object */
  object?: KubeObject
  /** the stored object the write replaces, when it was read */
  oldObject?: KubeObject
  /** an update made by a patch: its type (unset when the Content-Type names none) and its body as sent */
  patch?: { type: PatchType | undefined; body: unknown }
  dryRun: boolean
}
