/**
 * The admission steps of one kind's writes through the API beyond those every write passes: the
 * Priority plugin's on PriorityClasses (./priority-class.ts), the CSR plugins' on
 * CertificateSigningRequests (./certificate-signing.ts), and the param authorization of admission
 * policies and bindings (./policy-params.ts). Found by the kind's group and resource.
 */
import type { AdmissionBindings } from './bindings'
import { qualifiedResource } from '../apimachinery/status'
import { admissionGroup } from '../apis/resource-table/extensions'
import type { ResourceDef } from '../apis/resource-def'
import { certificatesGroup } from '../apis/certificates/csr-object'
import type { AdmissionAttributes } from './attributes'
import type { WriteGuard } from './guarded-write'
import { admitPriorityClassDelete, globalDefaultGuard } from './priority-class'
import { csrGuard } from './certificate-signing'
import { paramsGuard } from './policy-params'

interface KindWrites {
  /** refuses the write as asked, before anything is read: throws ApiError */
  admit?(def: ResourceDef, attrs: AdmissionAttributes): void
  /** the check each object a create, update or patch of the kind stores must pass (./guarded-write.ts) */
  guard?(
    env: AdmissionBindings,
    def: ResourceDef,
    attrs: AdmissionAttributes,
  ): WriteGuard | undefined
}

const params: KindWrites = { guard: (env, def, attrs) => paramsGuard(env, attrs.user, def) }

const kinds = new Map<string, KindWrites>([
  [
    qualifiedResource('scheduling.k8s.io', 'priorityclasses'),
    { admit: admitPriorityClassDelete, guard: globalDefaultGuard },
  ],
  [
    qualifiedResource(certificatesGroup, 'certificatesigningrequests'),
    { guard: (env, _def, attrs) => csrGuard(env, attrs.user, attrs.subresource) },
  ],
  [qualifiedResource(admissionGroup, 'validatingadmissionpolicies'), params],
  [qualifiedResource(admissionGroup, 'validatingadmissionpolicybindings'), params],
])

/**
 * Admits a write of the kind `def` serves as its own steps say: throws the ApiError of a refusal,
 * else answers the guard of what it stores, if any. Nothing for a custom resource.
 */
export function admitKindWrite(
  env: AdmissionBindings,
  def: ResourceDef,
  attrs: AdmissionAttributes,
): WriteGuard | undefined {
  const steps = def.custom ? undefined : kinds.get(qualifiedResource(def.group, def.plural))
  steps?.admit?.(def, attrs)
  return steps?.guard?.(env, def, attrs)
}
