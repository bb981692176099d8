/**
 * Structural schema of coordination.k8s.io/v1 (k8s.io/api/coordination/v1) as of Kubernetes v1.32.
 * acquireTime and renewTime are metav1.MicroTime, i.e. the scalar 'time'.
 */
import type { SchemaSet } from '../../apimachinery/schema-types'
import { COORDINATION, group, int, kind, ref, str, struct, time } from './dsl'

export const coordinationV1: SchemaSet = group(COORDINATION, {
  Lease: kind('Lease defines a lease concept.', {
    spec: ref(COORDINATION + 'LeaseSpec', 'spec contains the specification of the Lease.'),
  }),
  LeaseSpec: struct(
    {
      holderIdentity: str('holderIdentity contains the identity of the holder of a current lease.'),
      leaseDurationSeconds: int(
        'leaseDurationSeconds is a duration that candidates for a lease need to wait to force acquire it. This is measured against the time of last observed renewTime.',
      ),
      acquireTime: time('acquireTime is a time when the current lease was acquired.'),
      renewTime: time(
        'renewTime is a time when the current holder of a lease has last updated the lease.',
      ),
      leaseTransitions: int(
        'leaseTransitions is the number of transitions of a lease between holders.',
      ),
      strategy: str(
        'Strategy indicates the strategy for picking the leader for coordinated leader election. If the field is not specified, there is no active coordination for this lease.',
      ),
      preferredHolder: str(
        'PreferredHolder signals to a lease holder that the lease has a more optimal holder and should be given up.',
      ),
    },
    'LeaseSpec is a specification of a Lease.',
  ),
})
