import { describe, it, expect } from 'vitest'
import { parse } from 'yaml'
import { kindStruct, schemas } from '../../../../src/apis/schema'
import {
  findUnknownFields,
  strictDecodingMessage,
} from '../../../../src/apis/schema/unknown-fields'
import type { FieldType, SchemaSet } from '../../../../src/apimachinery/schema-types'

const CORE = 'io.k8s.api.core.v1.'
const APPS = 'io.k8s.api.apps.v1.'
const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.'

/** Unknown fields of a manifest, found through its apiVersion/kind like the server does. */
function unknownIn(manifest: Record<string, unknown>): string[] {
  const [g, v] = String(manifest.apiVersion).includes('/')
    ? String(manifest.apiVersion).split('/')
    : ['', String(manifest.apiVersion)]
  const struct = kindStruct(g!, v!, String(manifest.kind))
  if (struct === undefined) throw new Error(`no schema for ${manifest.apiVersion} ${manifest.kind}`)
  return findUnknownFields(manifest, struct, schemas)
}

const yaml = (s: string) => parse(s) as Record<string, unknown>

const deployment = () =>
  yaml(`
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
  labels: { app: web, tier: frontend }
  annotations: { deployment.kubernetes.io/revision: "3" }
spec:
  replicas: 3
  revisionHistoryLimit: 5
  progressDeadlineSeconds: 600
  minReadySeconds: 5
  selector:
    matchLabels: { app: web }
    matchExpressions:
      - { key: tier, operator: In, values: [frontend] }
  strategy:
    type: RollingUpdate
    rollingUpdate: { maxSurge: 25%, maxUnavailable: 1 }
  template:
    metadata:
      labels: { app: web, tier: frontend }
      annotations: { prometheus.io/scrape: "true" }
    spec:
      serviceAccountName: web
      terminationGracePeriodSeconds: 30
      priorityClassName: high
      securityContext:
        runAsNonRoot: true
        runAsUser: 1000
        fsGroup: 2000
        seccompProfile: { type: RuntimeDefault }
      imagePullSecrets: [{ name: regcred }]
      initContainers:
        - name: migrate
          image: registry.example.com/web:1.2.3
          command: [sh, -c, ./migrate]
          envFrom:
            - configMapRef: { name: web-config }
            - secretRef: { name: web-secrets, optional: true }
              prefix: SECRET_
      containers:
        - name: web
          image: registry.example.com/web:1.2.3
          imagePullPolicy: IfNotPresent
          args: [--port=8080]
          workingDir: /app
          ports:
            - { name: http, containerPort: 8080, protocol: TCP }
            - { name: metrics, containerPort: 9090 }
          env:
            - { name: LOG_LEVEL, value: info }
            - name: POD_NAME
              valueFrom: { fieldRef: { fieldPath: metadata.name } }
            - name: CPU_LIMIT
              valueFrom: { resourceFieldRef: { containerName: web, resource: limits.cpu, divisor: 1m } }
            - name: DB_HOST
              valueFrom: { configMapKeyRef: { name: web-config, key: db_host } }
            - name: DB_PASSWORD
              valueFrom: { secretKeyRef: { name: web-secrets, key: password, optional: false } }
          resources:
            requests: { cpu: 250m, memory: 256Mi }
            limits: { cpu: "1", memory: 512Mi }
          livenessProbe:
            httpGet:
              path: /healthz
              port: http
              scheme: HTTP
              httpHeaders: [{ name: X-Probe, value: liveness }]
            initialDelaySeconds: 10
            periodSeconds: 10
            timeoutSeconds: 2
            failureThreshold: 3
          readinessProbe:
            tcpSocket: { port: 8080 }
            successThreshold: 1
          startupProbe:
            exec: { command: [cat, /tmp/started] }
            failureThreshold: 30
          lifecycle:
            preStop: { exec: { command: [sh, -c, sleep 5] } }
            postStart: { httpGet: { path: /warm, port: 8080 } }
          securityContext:
            allowPrivilegeEscalation: false
            readOnlyRootFilesystem: true
            capabilities: { drop: [ALL], add: [NET_BIND_SERVICE] }
          volumeMounts:
            - { name: config, mountPath: /etc/web, readOnly: true }
            - { name: secrets, mountPath: /etc/secrets }
            - { name: cache, mountPath: /cache }
            - { name: data, mountPath: /data, subPath: web }
          terminationMessagePolicy: FallbackToLogsOnError
      volumes:
        - name: config
          configMap:
            name: web-config
            defaultMode: 420
            items: [{ key: app.yaml, path: app.yaml }]
        - name: secrets
          secret: { secretName: web-secrets, optional: true }
        - name: cache
          emptyDir: { medium: Memory, sizeLimit: 64Mi }
        - name: data
          persistentVolumeClaim: { claimName: web-data, readOnly: false }
        - name: token
          projected:
            sources:
              - serviceAccountToken: { path: token, expirationSeconds: 3600, audience: api }
              - downwardAPI: { items: [{ path: labels, fieldRef: { fieldPath: metadata.labels } }] }
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms:
              - matchExpressions: [{ key: kubernetes.io/arch, operator: In, values: [amd64, arm64] }]
          preferredDuringSchedulingIgnoredDuringExecution:
            - weight: 50
              preference: { matchExpressions: [{ key: disktype, operator: In, values: [ssd] }] }
        podAntiAffinity:
          preferredDuringSchedulingIgnoredDuringExecution:
            - weight: 100
              podAffinityTerm:
                labelSelector: { matchLabels: { app: web } }
                topologyKey: kubernetes.io/hostname
        podAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            - labelSelector: { matchLabels: { app: cache } }
              topologyKey: topology.kubernetes.io/zone
              namespaces: [shop]
      tolerations:
        - { key: dedicated, operator: Equal, value: web, effect: NoSchedule }
        - { key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute, tolerationSeconds: 300 }
      topologySpreadConstraints:
        - maxSkew: 1
          topologyKey: topology.kubernetes.io/zone
          whenUnsatisfiable: ScheduleAnyway
          labelSelector: { matchLabels: { app: web } }
      nodeSelector: { kubernetes.io/os: linux }
      dnsPolicy: ClusterFirst
      dnsConfig:
        options: [{ name: ndots, value: "2" }]
      hostAliases: [{ ip: 10.0.0.10, hostnames: [db.local] }]
      restartPolicy: Always
status:
  observedGeneration: 4
  replicas: 3
  updatedReplicas: 3
  readyReplicas: 3
  availableReplicas: 3
  conditions:
    - type: Available
      status: "True"
      lastUpdateTime: "2025-01-01T00:00:00Z"
      lastTransitionTime: "2025-01-01T00:00:00Z"
      reason: MinimumReplicasAvailable
      message: Deployment has minimum availability.
`)

const manifests: Record<string, string> = {
  Pod: `
apiVersion: v1
kind: Pod
metadata:
  name: debug
  namespace: default
  uid: 0b8f8c55-7a3c-4a55-9f8e-1b3c3c0b9f3e
  resourceVersion: "12345"
  creationTimestamp: "2025-01-01T00:00:00Z"
  ownerReferences:
    - { apiVersion: apps/v1, kind: ReplicaSet, name: web-7d4b9, uid: 1d6f, controller: true, blockOwnerDeletion: true }
  finalizers: [example.com/cleanup]
  managedFields:
    - manager: kubectl
      operation: Apply
      apiVersion: v1
      time: "2025-01-01T00:00:00Z"
      fieldsType: FieldsV1
      fieldsV1: { f:metadata: { f:labels: {} } }
spec:
  nodeName: node-1
  hostname: debug
  subdomain: svc
  shareProcessNamespace: true
  enableServiceLinks: false
  automountServiceAccountToken: false
  runtimeClassName: gvisor
  schedulerName: default-scheduler
  preemptionPolicy: PreemptLowerPriority
  priority: 1000
  os: { name: linux }
  hostUsers: false
  readinessGates: [{ conditionType: example.com/ready }]
  schedulingGates: [{ name: example.com/wait }]
  resourceClaims: [{ name: gpu, resourceClaimTemplateName: gpu-template }]
  overhead: { cpu: 100m }
  containers:
    - name: app
      image: busybox
      command: [sleep, infinity]
      stdin: true
      tty: true
      resizePolicy: [{ resourceName: cpu, restartPolicy: NotRequired }]
      resources: { claims: [{ name: gpu }] }
      readinessProbe: { grpc: { port: 9000, service: health } }
      lifecycle: { preStop: { sleep: { seconds: 5 } } }
      volumeDevices: [{ name: block, devicePath: /dev/xvda }]
      securityContext:
        privileged: false
        seLinuxOptions: { level: "s0:c123,c456" }
        appArmorProfile: { type: RuntimeDefault }
  ephemeralContainers:
    - name: debugger
      image: busybox
      targetContainerName: app
      stdin: true
  volumes:
    - name: host
      hostPath: { path: /var/log, type: Directory }
    - name: csi
      csi: { driver: secrets-store.csi.k8s.io, readOnly: true, volumeAttributes: { secretProviderClass: app } }
    - name: scratch
      ephemeral:
        volumeClaimTemplate:
          metadata: { labels: { type: scratch } }
          spec:
            accessModes: [ReadWriteOnce]
            storageClassName: fast
            resources: { requests: { storage: 1Gi } }
    - name: nfs
      nfs: { server: nfs.local, path: /exports }
    - name: dapi
      downwardAPI:
        items: [{ path: cpu, resourceFieldRef: { containerName: app, resource: requests.cpu } }]
    - name: block
      persistentVolumeClaim: { claimName: block }
  securityContext:
    supplementalGroups: [1000]
    sysctls: [{ name: net.ipv4.ip_local_port_range, value: "1024 65535" }]
    fsGroupChangePolicy: OnRootMismatch
status:
  phase: Running
  qosClass: Burstable
  hostIP: 10.0.0.1
  hostIPs: [{ ip: 10.0.0.1 }]
  podIP: 10.244.0.5
  podIPs: [{ ip: 10.244.0.5 }]
  startTime: "2025-01-01T00:00:00Z"
  conditions:
    - { type: Ready, status: "True", lastProbeTime: null, lastTransitionTime: "2025-01-01T00:00:00Z" }
  containerStatuses:
    - name: app
      ready: true
      started: true
      restartCount: 1
      image: busybox:latest
      imageID: docker.io/library/busybox@sha256:abc
      containerID: containerd://abc
      state: { running: { startedAt: "2025-01-01T00:00:01Z" } }
      lastState:
        terminated: { exitCode: 137, signal: 9, reason: OOMKilled, message: killed, startedAt: "2025-01-01T00:00:00Z", finishedAt: "2025-01-01T00:00:01Z", containerID: containerd://old }
      allocatedResources: { cpu: 100m }
      resources: { requests: { cpu: 100m } }
      user: { linux: { uid: 0, gid: 0, supplementalGroups: [10] } }
  initContainerStatuses:
    - name: init
      ready: false
      restartCount: 0
      image: busybox
      imageID: ""
      state: { waiting: { reason: PodInitializing, message: waiting } }
`,
  Service: `
apiVersion: v1
kind: Service
metadata: { name: web, namespace: shop }
spec:
  type: LoadBalancer
  selector: { app: web }
  ports:
    - { name: http, port: 80, targetPort: http, protocol: TCP, appProtocol: http }
    - { name: https, port: 443, targetPort: 8443, nodePort: 30443 }
  clusterIP: 10.96.0.10
  clusterIPs: [10.96.0.10]
  ipFamilies: [IPv4]
  ipFamilyPolicy: SingleStack
  sessionAffinity: ClientIP
  sessionAffinityConfig: { clientIP: { timeoutSeconds: 600 } }
  externalTrafficPolicy: Local
  internalTrafficPolicy: Cluster
  healthCheckNodePort: 32000
  loadBalancerSourceRanges: [10.0.0.0/8]
  allocateLoadBalancerNodePorts: true
  loadBalancerClass: example.com/lb
  publishNotReadyAddresses: false
  trafficDistribution: PreferClose
status:
  loadBalancer:
    ingress: [{ ip: 203.0.113.10, ipMode: VIP, ports: [{ port: 80, protocol: TCP }] }]
  conditions:
    - { type: Ready, status: "True", observedGeneration: 1, lastTransitionTime: "2025-01-01T00:00:00Z", reason: Ok, message: ok }
`,
  Job: `
apiVersion: batch/v1
kind: Job
metadata: { name: pi }
spec:
  parallelism: 2
  completions: 4
  completionMode: Indexed
  backoffLimitPerIndex: 1
  maxFailedIndexes: 2
  activeDeadlineSeconds: 600
  ttlSecondsAfterFinished: 100
  suspend: false
  podReplacementPolicy: Failed
  managedBy: kubernetes.io/job-controller
  podFailurePolicy:
    rules:
      - action: FailJob
        onExitCodes: { containerName: pi, operator: In, values: [42] }
      - action: Ignore
        onPodConditions: [{ type: DisruptionTarget, status: "True" }]
  successPolicy:
    rules: [{ succeededIndexes: "0-2", succeededCount: 2 }]
  template:
    spec:
      restartPolicy: Never
      containers:
        - { name: pi, image: perl, command: [perl, -Mbignum=bpi, -wle, print bpi(2000)] }
status:
  active: 1
  ready: 1
  terminating: 0
  succeeded: 2
  failed: 0
  startTime: "2025-01-01T00:00:00Z"
  completedIndexes: "0-1"
  failedIndexes: ""
  uncountedTerminatedPods: { succeeded: [a], failed: [] }
  conditions:
    - { type: SuccessCriteriaMet, status: "True", lastProbeTime: "2025-01-01T00:00:00Z", lastTransitionTime: "2025-01-01T00:00:00Z", reason: x, message: y }
`,
  CronJob: `
apiVersion: batch/v1
kind: CronJob
metadata: { name: hello }
spec:
  schedule: "*/5 * * * *"
  timeZone: Etc/UTC
  concurrencyPolicy: Forbid
  startingDeadlineSeconds: 200
  suspend: false
  successfulJobsHistoryLimit: 3
  failedJobsHistoryLimit: 1
  jobTemplate:
    metadata: { labels: { app: hello } }
    spec:
      backoffLimit: 2
      template:
        spec:
          restartPolicy: OnFailure
          containers: [{ name: hello, image: busybox, args: [date] }]
status:
  active: [{ apiVersion: batch/v1, kind: Job, name: hello-1, namespace: default, uid: u, resourceVersion: "1" }]
  lastScheduleTime: "2025-01-01T00:00:00Z"
  lastSuccessfulTime: "2025-01-01T00:00:00Z"
`,
  StatefulSet: `
apiVersion: apps/v1
kind: StatefulSet
metadata: { name: db }
spec:
  serviceName: db
  replicas: 3
  podManagementPolicy: Parallel
  minReadySeconds: 10
  revisionHistoryLimit: 3
  ordinals: { start: 1 }
  persistentVolumeClaimRetentionPolicy: { whenDeleted: Delete, whenScaled: Retain }
  updateStrategy:
    type: RollingUpdate
    rollingUpdate: { partition: 0, maxUnavailable: 1 }
  selector: { matchLabels: { app: db } }
  template:
    metadata: { labels: { app: db } }
    spec:
      containers:
        - name: postgres
          image: postgres:16
          ports: [{ containerPort: 5432, name: pg }]
          volumeMounts: [{ name: data, mountPath: /var/lib/postgresql/data }]
  volumeClaimTemplates:
    - apiVersion: v1
      kind: PersistentVolumeClaim
      metadata: { name: data }
      spec:
        accessModes: [ReadWriteOnce]
        storageClassName: standard
        volumeMode: Filesystem
        resources: { requests: { storage: 10Gi } }
        selector: { matchLabels: { tier: db } }
        dataSourceRef: { apiGroup: snapshot.storage.k8s.io, kind: VolumeSnapshot, name: snap }
      status:
        phase: Pending
status:
  replicas: 3
  readyReplicas: 3
  currentReplicas: 3
  updatedReplicas: 3
  availableReplicas: 3
  currentRevision: db-1
  updateRevision: db-1
  collisionCount: 0
  observedGeneration: 1
`,
  DaemonSet: `
apiVersion: apps/v1
kind: DaemonSet
metadata: { name: agent, namespace: kube-system }
spec:
  selector: { matchLabels: { app: agent } }
  updateStrategy:
    type: RollingUpdate
    rollingUpdate: { maxUnavailable: 1, maxSurge: 0 }
  template:
    metadata: { labels: { app: agent } }
    spec:
      hostNetwork: true
      hostPID: true
      dnsPolicy: ClusterFirstWithHostNet
      tolerations: [{ operator: Exists }]
      containers:
        - name: agent
          image: agent:1
          securityContext: { privileged: true }
          volumeMounts: [{ name: proc, mountPath: /host/proc, readOnly: true, mountPropagation: HostToContainer }]
      volumes: [{ name: proc, hostPath: { path: /proc } }]
status:
  currentNumberScheduled: 2
  numberMisscheduled: 0
  desiredNumberScheduled: 2
  numberReady: 2
  updatedNumberScheduled: 2
  numberAvailable: 2
  observedGeneration: 1
`,
  Node: `
apiVersion: v1
kind: Node
metadata:
  name: node-1
  labels: { kubernetes.io/hostname: node-1 }
spec:
  podCIDR: 10.244.1.0/24
  podCIDRs: [10.244.1.0/24, fd00::/64]
  providerID: edge://node-1
  unschedulable: false
  taints:
    - { key: node-role.kubernetes.io/control-plane, effect: NoSchedule }
    - { key: node.kubernetes.io/unreachable, effect: NoExecute, timeAdded: "2025-01-01T00:00:00Z" }
status:
  capacity: { cpu: "4", memory: 16Gi, pods: "110", ephemeral-storage: 100Gi }
  allocatable: { cpu: 3800m, memory: 15Gi, pods: "110" }
  conditions:
    - type: Ready
      status: "True"
      lastHeartbeatTime: "2025-01-01T00:00:00Z"
      lastTransitionTime: "2025-01-01T00:00:00Z"
      reason: KubeletReady
      message: kubelet is posting ready status
  addresses:
    - { type: InternalIP, address: 10.0.0.1 }
    - { type: Hostname, address: node-1 }
  daemonEndpoints: { kubeletEndpoint: { Port: 10250 } }
  nodeInfo:
    machineID: m
    systemUUID: s
    bootID: b
    kernelVersion: 6.1.0
    osImage: Debian GNU/Linux 12
    containerRuntimeVersion: containerd://1.7.0
    kubeletVersion: v1.32.0
    kubeProxyVersion: v1.32.0
    operatingSystem: linux
    architecture: amd64
  images: [{ names: [busybox:latest], sizeBytes: 4261550 }]
  volumesInUse: [kubernetes.io/csi/x]
  volumesAttached: [{ name: kubernetes.io/csi/x, devicePath: "" }]
  runtimeHandlers: [{ name: runc, features: { recursiveReadOnlyMounts: true, userNamespaces: false } }]
  features: { supplementalGroupsPolicy: true }
`,
  Event: `
apiVersion: v1
kind: Event
metadata: { name: web.17a, namespace: shop }
involvedObject: { kind: Pod, namespace: shop, name: web, uid: u, apiVersion: v1, resourceVersion: "1", fieldPath: "spec.containers{web}" }
reason: Pulled
message: Successfully pulled image
source: { component: kubelet, host: node-1 }
firstTimestamp: "2025-01-01T00:00:00Z"
lastTimestamp: "2025-01-01T00:00:05Z"
count: 2
type: Normal
eventTime: "2025-01-01T00:00:00.123456Z"
series: { count: 2, lastObservedTime: "2025-01-01T00:00:05.000000Z" }
action: Pulling
related: { kind: Node, name: node-1 }
reportingComponent: kubelet
reportingInstance: node-1
`,
  Lease: `
apiVersion: coordination.k8s.io/v1
kind: Lease
metadata: { name: node-1, namespace: kube-node-lease }
spec:
  holderIdentity: node-1
  leaseDurationSeconds: 40
  acquireTime: "2025-01-01T00:00:00.000000Z"
  renewTime: "2025-01-01T00:00:10.000000Z"
  leaseTransitions: 0
  strategy: OldestEmulationVersion
  preferredHolder: node-2
`,
  EndpointSlice: `
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata:
  name: web-abc
  labels: { kubernetes.io/service-name: web }
addressType: IPv4
endpoints:
  - addresses: [10.244.0.5]
    conditions: { ready: true, serving: true, terminating: false }
    hostname: web-0
    nodeName: node-1
    zone: zone-a
    targetRef: { kind: Pod, name: web-0, namespace: shop, uid: u }
    hints: { forZones: [{ name: zone-a }] }
ports:
  - { name: http, port: 8080, protocol: TCP, appProtocol: http }
`,
  ConfigMap: `
apiVersion: v1
kind: ConfigMap
metadata: { name: cfg }
immutable: true
data: { app.yaml: "a: 1" }
binaryData: { blob: aGVsbG8= }
`,
  Secret: `
apiVersion: v1
kind: Secret
metadata: { name: s }
type: kubernetes.io/dockerconfigjson
data: { .dockerconfigjson: e30= }
stringData: { extra: plain }
immutable: false
`,
  ServiceAccount: `
apiVersion: v1
kind: ServiceAccount
metadata: { name: web }
secrets: [{ name: web-token }]
imagePullSecrets: [{ name: regcred }]
automountServiceAccountToken: false
`,
  Endpoints: `
apiVersion: v1
kind: Endpoints
metadata: { name: web }
subsets:
  - addresses: [{ ip: 10.244.0.5, nodeName: node-1, targetRef: { kind: Pod, name: web-0 } }]
    notReadyAddresses: [{ ip: 10.244.0.6, hostname: web-1 }]
    ports: [{ name: http, port: 8080, protocol: TCP }]
`,
  Namespace: `
apiVersion: v1
kind: Namespace
metadata: { name: shop }
spec: { finalizers: [kubernetes] }
status:
  phase: Active
  conditions: [{ type: NamespaceDeletionContentFailure, status: "False", lastTransitionTime: "2025-01-01T00:00:00Z", reason: x, message: y }]
`,
  ReplicaSet: `
apiVersion: apps/v1
kind: ReplicaSet
metadata: { name: web-7d4b9 }
spec:
  replicas: 2
  minReadySeconds: 0
  selector: { matchLabels: { app: web } }
  template: { metadata: { labels: { app: web } }, spec: { containers: [{ name: web, image: nginx }] } }
status: { replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 2, availableReplicas: 2, observedGeneration: 1 }
`,
  ControllerRevision: `
apiVersion: apps/v1
kind: ControllerRevision
metadata: { name: db-1 }
revision: 1
data: { spec: { template: { anything: goes } } }
`,
  Scale: `
apiVersion: autoscaling/v1
kind: Scale
metadata: { name: web }
spec: { replicas: 5 }
status: { replicas: 3, selector: app=web }
`,
  Eviction: `
apiVersion: policy/v1
kind: Eviction
metadata: { name: web-0, namespace: shop }
deleteOptions:
  kind: DeleteOptions
  apiVersion: meta.k8s.io/v1
  gracePeriodSeconds: 30
  propagationPolicy: Background
  dryRun: [All]
  preconditions: { uid: u, resourceVersion: "1" }
`,
}

describe('realistic manifests have no unknown fields', () => {
  it('Deployment with probes, resources, env valueFrom, volumes, affinity, tolerations and securityContext', () => {
    expect(unknownIn(deployment())).toEqual([])
  })
  for (const [kind, text] of Object.entries(manifests)) {
    it(kind, () => {
      const manifest = yaml(text)
      expect(manifest.kind).toBe(kind)
      expect(unknownIn(manifest)).toEqual([])
    })
  }
})

describe('typos are reported with the paths kube-apiserver uses', () => {
  it('reports a top-level, a metadata and a spec typo', () => {
    const d = deployment()
    d.specc = {}
    ;(d.metadata as Record<string, unknown>).labelz = { a: 'b' }
    ;(d.spec as Record<string, unknown>).replica = 2
    expect(unknownIn(d)).toEqual(['metadata.labelz', 'spec.replica', 'specc'])
  })

  it('reports typos deep inside the pod template with list indexes', () => {
    const d = deployment() as any
    const pod = d.spec.template.spec
    pod.containers[0].imagee = 'nginx'
    pod.containers[0].env[1].valueFrom.fieldRef.fieldpath = 'x'
    pod.containers[0].livenessProbe.httpGet.paht = '/'
    pod.volumes[1].secret.secretname = 'x'
    pod.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].vals =
      []
    pod.initContainers[0].envFrom[1].secretRef.prefix = 'misplaced'
    expect(unknownIn(d)).toEqual([
      'spec.template.spec.initContainers[0].envFrom[1].secretRef.prefix',
      'spec.template.spec.containers[0].env[1].valueFrom.fieldRef.fieldpath',
      'spec.template.spec.containers[0].livenessProbe.httpGet.paht',
      'spec.template.spec.containers[0].imagee',
      'spec.template.spec.volumes[1].secret.secretname',
      'spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].vals',
    ])
  })

  it('matches field names case-sensitively', () => {
    const d = deployment() as any
    d.spec.template.spec.containers[0].Image = 'nginx'
    d.Kind = 'Deployment'
    expect(unknownIn(d)).toEqual(['spec.template.spec.containers[0].Image', 'Kind'])
  })

  it('reports unknown fields in StatefulSet volumeClaimTemplates and CronJob job templates', () => {
    const s = yaml(manifests.StatefulSet!) as any
    s.spec.volumeClaimTemplates[0].spec.resources.request = {}
    expect(unknownIn(s)).toEqual(['spec.volumeClaimTemplates[0].spec.resources.request'])
    const cj = yaml(manifests.CronJob!) as any
    cj.spec.jobTemplate.spec.template.spec.containers[0].cmd = ['date']
    expect(unknownIn(cj)).toEqual(['spec.jobTemplate.spec.template.spec.containers[0].cmd'])
  })

  it('does not descend into an unknown field', () => {
    const d = deployment() as any
    d.spec.extra = { nested: { deeper: 1 } }
    expect(unknownIn(d)).toEqual(['spec.extra'])
  })

  it('accepts anything under any-typed fields, map values of scalars and open structs', () => {
    const cr = yaml(manifests.ControllerRevision!) as any
    cr.data = { whatever: [{ really: true }] }
    cr.metadata.annotations = { 'x/y': 'z' }
    cr.metadata.managedFields = [{ manager: 'm', fieldsV1: { 'f:spec': { 'f:x': {} } } }]
    expect(unknownIn(cr)).toEqual([])

    const set: SchemaSet = {
      Root: {
        fields: {
          apiVersion: { type: { kind: 'scalar', scalar: 'string' } },
          spec: { type: { kind: 'ref', ref: 'Open' } },
        },
      },
      Open: { fields: {}, open: true },
    }
    expect(
      findUnknownFields({ apiVersion: 'x', kind: 'Root', spec: { a: { b: 1 } } }, 'Root', set),
    ).toEqual([])
  })

  it('joins map keys with "." for maps of structs', () => {
    const set: SchemaSet = {
      Root: { fields: { items: { type: { kind: 'map', values: { kind: 'ref', ref: 'Item' } } } } },
      Item: { fields: { name: { type: { kind: 'scalar', scalar: 'string' } } } },
    }
    expect(findUnknownFields({ items: { first: { name: 'a', nmae: 'b' } } }, 'Root', set)).toEqual([
      'items.first.nmae',
    ])
  })

  it('leaves values of the wrong JSON type to type validation', () => {
    const d = deployment() as any
    d.spec.template.spec.containers = { name: 'x' }
    d.spec.selector = 'app=web'
    d.spec.replicas = { three: 3 }
    d.metadata.labels = ['a']
    expect(unknownIn(d)).toEqual([])
  })

  it('builds the strict decoding message', () => {
    expect(strictDecodingMessage(['spec.foo', 'spec.bar'])).toBe(
      'strict decoding error: unknown field "spec.foo", unknown field "spec.bar"',
    )
    expect(strictDecodingMessage(['metadata.a"b\\c\td'])).toBe(
      'strict decoding error: unknown field "metadata.a\\"b\\\\c\\td"',
    )
  })
})

describe('kindStruct', () => {
  it('maps group/version/kind to the upstream definition name', () => {
    expect(kindStruct('apps', 'v1', 'Deployment')).toBe('io.k8s.api.apps.v1.Deployment')
    expect(kindStruct('', 'v1', 'Pod')).toBe('io.k8s.api.core.v1.Pod')
    expect(kindStruct('batch', 'v1', 'CronJob')).toBe('io.k8s.api.batch.v1.CronJob')
    expect(kindStruct('coordination.k8s.io', 'v1', 'Lease')).toBe(
      'io.k8s.api.coordination.v1.Lease',
    )
    expect(kindStruct('discovery.k8s.io', 'v1', 'EndpointSlice')).toBe(
      'io.k8s.api.discovery.v1.EndpointSlice',
    )
    expect(kindStruct('autoscaling', 'v1', 'Scale')).toBe('io.k8s.api.autoscaling.v1.Scale')
    expect(kindStruct('policy', 'v1', 'Eviction')).toBe('io.k8s.api.policy.v1.Eviction')
  })
  it('is undefined for unknown kinds and for structs that are not kinds', () => {
    expect(kindStruct('apps', 'v1', 'Widget')).toBeUndefined()
    expect(kindStruct('', 'v1', 'PodSpec')).toBeUndefined()
    expect(kindStruct('apps', 'v2', 'Deployment')).toBeUndefined()
    expect(kindStruct('', 'v1', 'toString')).toBeUndefined()
  })
})

describe('schema set integrity', () => {
  const refsOf = (t: FieldType): string[] =>
    t.kind === 'ref'
      ? [t.ref]
      : t.kind === 'list'
        ? refsOf(t.items)
        : t.kind === 'map'
          ? refsOf(t.values)
          : []

  it('every referenced struct exists', () => {
    const missing: string[] = []
    for (const [name, def] of Object.entries(schemas))
      for (const [field, f] of Object.entries(def.fields))
        for (const r of refsOf(f.type)) if (!(r in schemas)) missing.push(`${name}.${field} → ${r}`)
    expect(missing).toEqual([])
  })

  it('every top-level kind has apiVersion, kind and metadata, and spec/status where upstream has them', () => {
    const kinds = ['Pod', 'Namespace', 'Node', 'Service', 'PersistentVolumeClaim']
      .map((k) => CORE + k)
      .concat(['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet'].map((k) => APPS + k))
      .concat([
        'io.k8s.api.batch.v1.Job',
        'io.k8s.api.batch.v1.CronJob',
        'io.k8s.api.autoscaling.v1.Scale',
      ])
    for (const k of kinds) {
      expect(Object.keys(schemas[k]!.fields).slice(0, 3), k).toEqual([
        'apiVersion',
        'kind',
        'metadata',
      ])
      expect(schemas[k]!.fields, k).toHaveProperty('spec')
      expect(schemas[k]!.fields, k).toHaveProperty('status')
    }
    expect(schemas['io.k8s.api.coordination.v1.Lease']!.fields).toHaveProperty('spec')
    expect(schemas[CORE + 'ConfigMap']!.fields.metadata!.type).toEqual({
      kind: 'ref',
      ref: META + 'ObjectMeta',
    })
  })

  it('has descriptions for kinds and commonly explained fields', () => {
    expect(schemas[APPS + 'Deployment']!.description).toMatch(/Deployment/)
    expect(schemas[APPS + 'DeploymentSpec']!.fields.replicas!.description).toBe(
      'Number of desired pods. This is a pointer to distinguish between explicit zero and not specified. Defaults to 1.',
    )
  })
})

describe('strategic merge patch metadata', () => {
  const list = (struct: string, field: string) => {
    const t = schemas[struct]!.fields[field]!.type
    if (t.kind !== 'list') throw new Error(`${struct}.${field} is not a list`)
    return t
  }

  it('marks the pod spec lists with their merge keys', () => {
    expect(list(CORE + 'PodSpec', 'containers')).toMatchObject({
      patchStrategy: 'merge',
      patchMergeKey: 'name',
      listType: 'map',
      listMapKeys: ['name'],
    })
    expect(list(CORE + 'PodSpec', 'initContainers')).toMatchObject({
      patchStrategy: 'merge',
      patchMergeKey: 'name',
    })
    expect(list(CORE + 'PodSpec', 'ephemeralContainers')).toMatchObject({
      patchStrategy: 'merge',
      patchMergeKey: 'name',
    })
    expect(list(CORE + 'PodSpec', 'volumes')).toMatchObject({
      patchStrategy: 'merge,retainKeys',
      patchMergeKey: 'name',
    })
    expect(list(CORE + 'PodSpec', 'imagePullSecrets')).toMatchObject({
      patchStrategy: 'merge',
      patchMergeKey: 'name',
    })
    expect(list(CORE + 'PodSpec', 'hostAliases')).toMatchObject({
      patchStrategy: 'merge',
      patchMergeKey: 'ip',
    })
    expect(list(CORE + 'PodSpec', 'topologySpreadConstraints')).toMatchObject({
      patchStrategy: 'merge',
      patchMergeKey: 'topologyKey',
      listMapKeys: ['topologyKey', 'whenUnsatisfiable'],
    })
    expect(list(CORE + 'PodSpec', 'schedulingGates')).toMatchObject({
      patchStrategy: 'merge',
      patchMergeKey: 'name',
    })
    expect(list(CORE + 'PodSpec', 'resourceClaims')).toMatchObject({ patchMergeKey: 'name' })
    expect(list(CORE + 'PodSpec', 'tolerations')).toEqual(
      expect.not.objectContaining({ patchStrategy: expect.anything() }),
    )
    expect(list(CORE + 'PodSpec', 'tolerations').listType).toBe('atomic')
  })

  it('marks the container lists with their merge keys', () => {
    expect(list(CORE + 'Container', 'env')).toMatchObject({
      patchStrategy: 'merge',
      patchMergeKey: 'name',
    })
    expect(list(CORE + 'Container', 'ports')).toMatchObject({
      patchStrategy: 'merge',
      patchMergeKey: 'containerPort',
      listType: 'map',
      listMapKeys: ['containerPort', 'protocol'],
    })
    expect(list(CORE + 'Container', 'volumeMounts')).toMatchObject({
      patchStrategy: 'merge',
      patchMergeKey: 'mountPath',
    })
    expect(list(CORE + 'Container', 'volumeDevices')).toMatchObject({
      patchStrategy: 'merge',
      patchMergeKey: 'devicePath',
    })
    expect(list(CORE + 'EphemeralContainer', 'env')).toMatchObject({
      patchStrategy: 'merge',
      patchMergeKey: 'name',
    })
    expect(list(CORE + 'Container', 'args').patchStrategy).toBeUndefined()
  })

  it('marks conditions, addresses, ports, owner references and finalizers', () => {
    expect(list(CORE + 'PodStatus', 'conditions')).toMatchObject({
      patchStrategy: 'merge',
      patchMergeKey: 'type',
    })
    expect(list(CORE + 'NodeStatus', 'conditions')).toMatchObject({
      patchStrategy: 'merge',
      patchMergeKey: 'type',
    })
    expect(list(CORE + 'NodeStatus', 'addresses')).toMatchObject({
      patchStrategy: 'merge',
      patchMergeKey: 'type',
    })
    expect(list(APPS + 'DeploymentStatus', 'conditions')).toMatchObject({
      patchStrategy: 'merge',
      patchMergeKey: 'type',
    })
    expect(list(CORE + 'ServiceSpec', 'ports')).toMatchObject({
      patchStrategy: 'merge',
      patchMergeKey: 'port',
      listMapKeys: ['port', 'protocol'],
    })
    expect(list(CORE + 'NodeSpec', 'podCIDRs')).toMatchObject({
      patchStrategy: 'merge',
      listType: 'set',
    })
    expect(list(META + 'ObjectMeta', 'ownerReferences')).toMatchObject({
      patchStrategy: 'merge',
      patchMergeKey: 'uid',
    })
    expect(list(META + 'ObjectMeta', 'finalizers')).toMatchObject({
      patchStrategy: 'merge',
      listType: 'set',
    })
    expect(list(META + 'ObjectMeta', 'finalizers').patchMergeKey).toBeUndefined()
  })

  it('marks the one-of structs patched with retainKeys', () => {
    expect(schemas[CORE + 'Volume']!.retainKeys).toBe(true)
    expect(schemas[APPS + 'DeploymentStrategy']!.retainKeys).toBe(true)
    expect(schemas[APPS + 'DaemonSetUpdateStrategy']!.retainKeys).toBe(true)
    expect(schemas[APPS + 'StatefulSetUpdateStrategy']!.retainKeys).toBe(true)
    expect(schemas[CORE + 'Container']!.retainKeys).toBeUndefined()
  })
})
