/**
 * The authorizer admission asks: CEL's `authorizer` variable in policies and webhook match
 * conditions, the CSR signer checks (../certificate-signing.ts) and the policy param checks
 * (../policy-params.ts). It is the cluster's (RBAC and the Node authorizer), which lives in the
 * HTTP layer above admission: the Worker entry hands it in once with `provideAdmissionAuthorizer`,
 * as a loader that reads the current policy and answers with a synchronous check (CEL evaluates
 * synchronously). Without one every check is refused with an error.
 */
import type { AdmissionBindings } from '../bindings'
import type { Authorize } from '../../apis/admissionregistration/cel-authz'

export type AuthorizerLoader = (env: AdmissionBindings) => Promise<Authorize>

let loader: AuthorizerLoader | undefined

export function provideAdmissionAuthorizer(load: AuthorizerLoader): void {
  loader = load
}

const unavailable: Authorize = () => ({
  allowed: false,
  reason: '',
  error: 'no authorizer is configured for admission',
})

/** The authorizer over the cluster's current policy. */
export async function admissionAuthorizer(env: AdmissionBindings): Promise<Authorize> {
  return loader ? loader(env) : unavailable
}
