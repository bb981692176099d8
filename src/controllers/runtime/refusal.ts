import type { KubeObject, Status } from '../../apimachinery/types'
import { ApiError } from '../../apimachinery/status'
import { sameResource } from '../resources'
import type { Action, Refused, ResourceRef } from './types'

/** The API's refusal of an action, naming the action: the runner hands it to the key's next reconcile. */
export class RefusedAction extends ApiError implements Refused {
  constructor(
    readonly action: Action,
    status: Status,
  ) {
    super(status)
  }
}

/** Awaits an action's write; when the API refuses it, the error names the action. */
export async function naming(action: Action, write: Promise<void>): Promise<void> {
  try {
    await write
  } catch (e) {
    if (e instanceof ApiError && !(e instanceof RefusedAction))
      throw new RefusedAction(action, e.status)
    throw e
  }
}

/** A refused create: the object asked for, and the error text a client prints (the Status message). */
export interface RefusedCreate {
  object: KubeObject
  status: Status
  message: string
}

/** The create of a `resource` object that stopped the previous actions, if one did. */
export function refusedCreate(
  refused: Refused | undefined,
  resource: ResourceRef,
): RefusedCreate | undefined {
  const action = refused?.action
  if (!refused || action?.type !== 'create' || !sameResource(action.resource, resource))
    return undefined
  return { object: action.object, status: refused.status, message: refused.status.message ?? '' }
}

/** The delete of a `resource` object that stopped the previous actions, if one did. */
export function refusedDelete(
  refused: Refused | undefined,
  resource: ResourceRef,
): { name: string; status: Status; message: string } | undefined {
  const action = refused?.action
  if (!refused || action?.type !== 'delete' || !sameResource(action.resource, resource))
    return undefined
  return { name: action.name, status: refused.status, message: refused.status.message ?? '' }
}

/** An AlreadyExists refusal: the object is there after all, which upstream's controllers do not report. */
export const isAlreadyExists = (status: Status) =>
  status.code === 409 && status.reason === 'AlreadyExists'
