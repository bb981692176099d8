import type { PodSecurityVariables } from '../apis/pod-security/settings'

/**
 * The Worker's variables and secrets, as `[vars]` in wrangler.toml, `wrangler secret put` or the
 * local launcher set them; with Pod Security admission's cluster defaults and exemptions
 * (EDGEPLANE_POD_SECURITY_*, PodSecurityVariables). Read them through `settingsOf`
 * (settings.ts), which parses them once; only the secrets are read as they are.
 */
export interface Variables extends PodSecurityVariables {
  /** Bearer token granting full access, at least 32 characters; without one the server serves only its health paths. */
  ADMIN_TOKEN?: string
  /** "true", with no ADMIN_TOKEN, makes every request the admin's: anonymous local play with `wrangler dev` only. */
  EDGEPLANE_INSECURE_ANONYMOUS?: string
  /** Compaction keeps at least this many recent changes (default 1000). */
  COMPACT_RETAIN_EVENTS?: string
  /** Compaction keeps at least this many seconds of history (default 300). */
  COMPACT_RETAIN_SECONDS?: string
  /** Every controller reconciles every key at least this often, in seconds (default 30). */
  CONTROLLER_RESYNC_SECONDS?: string
  /** the least time between notification-driven passes of one controller (default 100 ms) */
  CONTROLLER_PASS_GAP_MS?: string
  /** "false" turns off change notifications to controllers: they then act on their periodic passes only. */
  CONTROLLER_NOTIFICATIONS?: string
  /** Service cluster IPs are allocated from this CIDR (default 10.96.0.0/12). */
  SERVICE_CLUSTER_IP_RANGE?: string
  /** Events are removed this many seconds after their last write, as kube-apiserver's --event-ttl (default 3600). */
  EDGEPLANE_EVENT_TTL_SECONDS?: string
  /** Node pod CIDRs are cut from this CIDR (default 10.244.0.0/16). */
  CLUSTER_CIDR?: string
  /** The prefix length of each node's pod CIDR (default 24). */
  NODE_CIDR_MASK_SIZE?: string
  /** Seconds without a node heartbeat before the node is marked Unknown (default 40). */
  EDGEPLANE_NODE_MONITOR_GRACE_PERIOD?: string
  /** node eviction rate limit (kube-controller-manager's --node-eviction-rate and companions) */
  EDGEPLANE_NODE_EVICTION_RATE?: string
  EDGEPLANE_SECONDARY_NODE_EVICTION_RATE?: string
  EDGEPLANE_UNHEALTHY_ZONE_THRESHOLD?: string
  EDGEPLANE_LARGE_CLUSTER_SIZE_THRESHOLD?: string
  /**
   * The API's hostnames (comma-separated). When set, a request for any other host is served as
   * ingress traffic (Ingress rules, LoadBalancer hostnames); requests for these never are.
   */
  EDGEPLANE_API_HOST?: string
  /** LoadBalancer Services are served at `<svc>.<ns>.<this domain>` (default `localhost`). */
  EDGEPLANE_LB_DOMAIN?: string
  /** What Ingress and LoadBalancer status report as the edge's address (an IP or a hostname). */
  EDGEPLANE_INGRESS_ADDRESS?: string
  /** Set by the local launcher: its ingress listener marks the requests it passes on with this secret. */
  EDGEPLANE_INGRESS_SECRET?: string
  /** "true" counts every invocation's subrequests, RPC sizes, cache sizes and pass CPU and fails past the production limits (tests, the bench). */
  EDGEPLANE_STRICT_LIMITS?: string
  /**
   * The PEM bundle of the CA the API's serving certificate chains to, published in every
   * namespace's `kube-root-ca.crt`; unset when the API is served under a publicly trusted certificate.
   */
  EDGEPLANE_ROOT_CA?: string
  /** `ip:port` where the API listens, listed by the `default/kubernetes` Endpoints; unset when it has no IP clients can dial. */
  EDGEPLANE_API_ENDPOINT?: string
  /** The cluster CA (PEM certificate, PKCS#8 PEM key): signs approved kube-apiserver-client CSRs. Secrets; never served. */
  CLUSTER_CA_CERT?: string
  CLUSTER_CA_KEY?: string
  /** The longest validity of an issued certificate, in seconds (kube-controller-manager's --cluster-signing-duration; default one year). */
  CLUSTER_SIGNING_DURATION_SECONDS?: string
  /** Set by the local launcher: its https front marks requests that carried a verified client certificate with this secret. */
  EDGEPLANE_CLIENT_CERT_SECRET?: string
  /**
   * "true" takes a client certificate Cloudflare's edge verified (API Shield mTLS, `request.cf.tlsClientAuth`)
   * and the cluster CA (CLUSTER_CA_CERT) issued as its common name's user, in its organizations'
   * groups. Off by default; only for a deployed Worker whose API hostname has mTLS with the cluster CA,
   * and that no other Worker binds to (a service binding's caller sets request.cf).
   */
  EDGEPLANE_CLOUDFLARE_MTLS?: string
}
