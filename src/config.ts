/** Tuning constants, each with the reason for its value. */

/** kube-apiserver's MaxRequestBodyBytes: twice etcd's 1.5 MB request limit, since JSON shrinks when stored. */
export const maxRequestBodyBytes = 3 * 1024 * 1024

/** kube-apiserver's maxJSONPatchOperations: a longer JSON patch is refused with 413. */
export const maxJsonPatchOperations = 10_000

/** A stored object is one SQLite row in two tables; a Durable Object row holds at most 2 MB. */
export const maxStoredObjectBytes = 1_900_000

/**
 * What one store call may return: a LIST page, a batch of changes or of deletions is cut here
 * (with a continue token or `more`), well under the platform's 32 MiB limit on one RPC value.
 */
export const storeReplyBytes = 8 * 1024 * 1024

/** Compaction never forgets the most recent 1000 changes (kine's compactMinRetain)... */
export const defaultCompactRetainEvents = 1000

/** ...nor the last 5 minutes (kube-apiserver compacts etcd every 5 minutes). */
export const defaultCompactRetainSeconds = 300

/** The soonest compaction runs again while the log is growing (see `housekeeping.ts`). */
export const compactionIntervalMs = 60_000

/** kube-apiserver's --event-ttl: an Event is removed this long after its last write. */
export const defaultEventTtlSeconds = 3600

/** Expired objects removed per transaction; a full batch brings the next sweep forward. */
export const expiryBatchRows = 500

/** Changes compacted per transaction (each removes at most two rows), so no transaction holds the store for long. */
export const compactionBatchRows = 5000

/** The apiserver's watch cache sends a bookmark about once a minute. */
export const bookmarkIntervalMs = 60_000

/** Replayed watch events are packed into frames of about this size. */
export const watchFrameBytes = 256 * 1024

/** A chunked HTTP watcher further behind than this is closed; it resumes from its last resourceVersion. */
export const watchMaxBufferedBytes = 16 * 1024 * 1024

/** Watches without timeoutSeconds end after 30 to 60 minutes, as kube-apiserver's min-request-timeout does. */
export const watchDefaultTimeoutSeconds = [1800, 3600] as const

/** A generated name that collides is drawn again, a few times, before AlreadyExists. */
export const generateNameAttempts = 8

/** How stale the Worker's compiled RBAC policy may be: a changed role or binding takes effect within this long. */
export const rbacRecheckMs = 1000

/** How stale an isolate's copy of the admission webhook configurations may get: the same second as RBAC's. */
export const webhookRecheckMs = rbacRecheckMs

/** The shortest admin token served with: shorter ones are too easy to guess. */
export const minAdminTokenLength = 32

/** Pod Security admission checks at most this many existing pods when a namespace's enforce level is tightened (upstream's limit)... */
export const podSecurityNamespaceMaxPodsToCheck = 3000

/** ...and stops checking them after this long, answering with how many it checked. */
export const podSecurityNamespacePodCheckTimeoutMs = 1000

/** How stale Pod Security admission's copy of a namespace's labels may be (upstream reads them from an informer). */
export const podSecurityNamespaceRecheckMs = 1000
