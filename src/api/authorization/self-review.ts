import { jsonBody } from '../http/respond'
import { readCreateBody } from './review-body'
import { requestUser } from '../authentication/user'

const apiVersion = 'authentication.k8s.io/v1'

/** POST selfsubjectreviews (`kubectl auth whoami`): the caller's user info, as authentication found it. */
export async function serveSelfSubjectReview(req: Request): Promise<Response> {
  await readCreateBody(req, apiVersion, 'SelfSubjectReview')
  const user = requestUser(req)
  const userInfo: Record<string, unknown> = { username: user.username }
  if (user.uid) userInfo.uid = user.uid
  userInfo.groups = user.groups
  if (user.extra && Object.keys(user.extra).length) userInfo.extra = user.extra
  const review = {
    kind: 'SelfSubjectReview',
    apiVersion,
    metadata: { creationTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z') },
    status: { userInfo },
  }
  return jsonBody(review, 201)
}
