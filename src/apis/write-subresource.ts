/**
 * The subresources a write may name: `status`, `approval` (a CertificateSigningRequest's),
 * `scale`, `ephemeralcontainers` (a pod's), and `finalize` (a namespace's, updated only).
 */
export type WriteSubresource = 'status' | 'approval' | 'scale' | 'finalize' | 'ephemeralcontainers'

/** The subresources a patch may name: every one but `finalize`, which is only ever replaced. */
export type PatchSubresource = Exclude<WriteSubresource, 'finalize'>

/**
 * The subresources whose body is (part of) the stored object itself, which the update strategy
 * merges into it; a `scale` is translated to the workload's replicas, a `finalize` to its finalizers.
 */
export type ObjectSubresource = Exclude<WriteSubresource, 'scale' | 'finalize'>
