import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type TestServer } from './helpers/server'
import { killPythons, runPython } from './helpers/python'

// The Python client deserializes every answer into its typed models, whose setters refuse a
// required field that is missing (`Invalid value for `replicas`, must not be `None``): a create,
// read, list or watch of each kind through its typed API must come back whole.

const NS = 'py-bodies'

/** Every kind: created, read back, listed and watched through the typed API; any ValueError is printed. */
const everyKind = `
batch = client.BatchV1Api()
policy = client.PolicyV1Api()
autoscaling = client.AutoscalingV1Api()
net = client.NetworkingV1Api()
discovery = client.DiscoveryV1Api()
coordination = client.CoordinationV1Api()
labels = {"app": "py"}
template = {"metadata": {"labels": labels}, "spec": {"containers": [{"name": "c", "image": "busybox", "command": ["sleep", "3600"]}]}}
workload = {"selector": {"matchLabels": labels}, "template": template}
kinds = [
    ("DaemonSet", apps.create_namespaced_daemon_set, apps.read_namespaced_daemon_set, apps.list_namespaced_daemon_set, {"spec": workload}),
    ("ReplicaSet", apps.create_namespaced_replica_set, apps.read_namespaced_replica_set, apps.list_namespaced_replica_set, {"spec": dict(workload, replicas=0)}),
    ("StatefulSet", apps.create_namespaced_stateful_set, apps.read_namespaced_stateful_set, apps.list_namespaced_stateful_set, {"spec": dict(workload, replicas=0)}),
    ("Deployment", apps.create_namespaced_deployment, apps.read_namespaced_deployment, apps.list_namespaced_deployment, {"spec": dict(workload, replicas=0)}),
    ("ReplicationController", core.create_namespaced_replication_controller, core.read_namespaced_replication_controller, core.list_namespaced_replication_controller,
        {"spec": {"replicas": 0, "selector": labels, "template": template}}),
    ("Job", batch.create_namespaced_job, batch.read_namespaced_job, batch.list_namespaced_job,
        {"spec": {"suspend": True, "template": {"spec": dict(template["spec"], restartPolicy="Never")}}}),
    ("CronJob", batch.create_namespaced_cron_job, batch.read_namespaced_cron_job, batch.list_namespaced_cron_job,
        {"spec": {"schedule": "0 0 1 1 *", "suspend": True, "jobTemplate": {"spec": {"template": {"spec": dict(template["spec"], restartPolicy="Never")}}}}}),
    ("Pod", core.create_namespaced_pod, core.read_namespaced_pod, core.list_namespaced_pod, {"spec": template["spec"]}),
    ("Service", core.create_namespaced_service, core.read_namespaced_service, core.list_namespaced_service, {"spec": {"selector": labels, "ports": [{"port": 80}]}}),
    ("PodDisruptionBudget", policy.create_namespaced_pod_disruption_budget, policy.read_namespaced_pod_disruption_budget, policy.list_namespaced_pod_disruption_budget,
        {"spec": {"minAvailable": 1, "selector": {"matchLabels": labels}}}),
    ("HorizontalPodAutoscaler", autoscaling.create_namespaced_horizontal_pod_autoscaler, autoscaling.read_namespaced_horizontal_pod_autoscaler,
        autoscaling.list_namespaced_horizontal_pod_autoscaler, {"spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "py"}, "maxReplicas": 2}}),
    ("ResourceQuota", core.create_namespaced_resource_quota, core.read_namespaced_resource_quota, core.list_namespaced_resource_quota, {"spec": {"hard": {"pods": "50"}}}),
    ("PersistentVolumeClaim", core.create_namespaced_persistent_volume_claim, core.read_namespaced_persistent_volume_claim, core.list_namespaced_persistent_volume_claim,
        {"spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}}),
    ("Event", core.create_namespaced_event, core.read_namespaced_event, core.list_namespaced_event,
        {"involvedObject": {"kind": "Pod", "name": "py", "namespace": NS}, "reason": "Tested", "message": "m", "type": "Normal"}),
    ("Ingress", net.create_namespaced_ingress, net.read_namespaced_ingress, net.list_namespaced_ingress,
        {"spec": {"defaultBackend": {"service": {"name": "py", "port": {"number": 80}}}}}),
    ("NetworkPolicy", net.create_namespaced_network_policy, net.read_namespaced_network_policy, net.list_namespaced_network_policy, {"spec": {}}),
    ("EndpointSlice", discovery.create_namespaced_endpoint_slice, discovery.read_namespaced_endpoint_slice, discovery.list_namespaced_endpoint_slice,
        {"addressType": "IPv4", "endpoints": [{"addresses": ["10.0.0.1"]}]}),
    ("Lease", coordination.create_namespaced_lease, coordination.read_namespaced_lease, coordination.list_namespaced_lease, {"spec": {"holderIdentity": "py"}}),
]
for kind, create, read, list_, body in kinds:
    for step, call in (
        ("create", lambda: create(NS, dict(body, metadata={"name": "py"}))),
        ("read", lambda: read("py", NS)),
        ("list", lambda: list_(NS).items[0]),
    ):
        try:
            obj = call()
            out([kind, step, type(obj).__name__, json.loads(json.dumps(obj.to_dict().get("status"), default=str))])
        except ValueError as e:
            out([kind, step, "ValueError", str(e)])
    try:
        w = watch.Watch()
        for ev in w.stream(list_, NS, timeout_seconds=10):
            out([kind, "watch", ev["type"], type(ev["object"]).__name__])
            w.stop()
    except ValueError as e:
        out([kind, "watch", "ValueError", str(e)])
`

const defaults = {
  current_number_scheduled: 0,
  number_misscheduled: 0,
  desired_number_scheduled: 0,
  number_ready: 0,
}

describe('python3-kubernetes typed models over every kind', () => {
  let server: TestServer
  let printed: unknown[][] = []

  beforeAll(async () => {
    server = await startServer()
    await runPython(server, NS, `core.create_namespace({"metadata": {"name": NS}})`)
    printed = (await runPython(server, NS, everyKind)) as unknown[][]
  })

  afterAll(async () => {
    killPythons()
    await server?.dispose()
  })

  it('no create, read, list or watch answer is refused by the models', () => {
    expect(printed.filter((line) => line[2] === 'ValueError')).toEqual([])
    const kinds = new Set(printed.map((line) => line[0]))
    expect(kinds.size).toBe(18)
    for (const kind of kinds)
      expect(
        printed.filter((line) => line[0] === kind).map((line) => line[1]),
        String(kind),
      ).toEqual(['create', 'read', 'list', 'watch'])
  })

  it('a created workload answers with its zero counts', () => {
    const created = (kind: string) =>
      printed.find((line) => line[0] === kind && line[1] === 'create')!
    expect(created('DaemonSet')).toEqual([
      'DaemonSet',
      'create',
      'V1DaemonSet',
      expect.objectContaining(defaults),
    ])
    expect(created('ReplicaSet')[3]).toMatchObject({ replicas: 0 })
    expect(created('StatefulSet')[3]).toMatchObject({ replicas: 0 })
    expect(created('ReplicationController')[3]).toMatchObject({ replicas: 0 })
    expect(created('PodDisruptionBudget')[3]).toMatchObject({
      disruptions_allowed: 0,
      current_healthy: 0,
      desired_healthy: 0,
      expected_pods: 0,
    })
    expect(created('HorizontalPodAutoscaler')[3]).toMatchObject({
      current_replicas: 0,
      desired_replicas: 0,
    })
  })

  it('status writes that leave required fields out, and a Node without status, read back whole', async () => {
    const [rs, pod, node, nodes] = await runPython(
      server,
      NS,
      `
rs = apps.patch_namespaced_replica_set_status("py", NS, [{"op": "remove", "path": "/status/replicas"}])
pod = core.patch_namespaced_pod_status("py", NS, {"status": {"containerStatuses": [{"name": "c", "image": "busybox"}]}})
c = pod.status.container_statuses[0]
out(rs.status.replicas)
out([c.image_id, c.ready, c.restart_count])
node = core.create_node({"metadata": {"name": "py-node"}})
out([node.status.node_info.kubelet_version, node.status.daemon_endpoints.kubelet_endpoint.port])
out([n.metadata.name for n in core.list_node().items])
`,
    )
    expect(rs).toBe(0)
    expect(pod).toEqual(['', false, 0])
    expect(node).toEqual(['', 0])
    expect(nodes).toContain('py-node')
  })

  it('bodies end with the encoder newline, and Content-Length counts it', async () => {
    const length = (res: { headers: Record<string, unknown>; body: string }) =>
      Number(res.headers['content-length'] ?? Buffer.byteLength(res.body))
    const missing = await server.request(`/api/v1/namespaces/${NS}/configmaps/missing`, {
      token: server.token,
      headers: { 'User-Agent': 'kubectl/v1.32.0' },
    })
    expect(missing.status).toBe(404)
    expect(missing.body).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"configmaps \\"missing\\" not found","reason":"NotFound","details":{"name":"missing","kind":"configmaps"},"code":404}\n',
    )
    expect(length(missing)).toBe(Buffer.byteLength(missing.body))
    for (const path of [
      `/apis/apps/v1/namespaces/${NS}/daemonsets/py`,
      `/apis/apps/v1/namespaces/${NS}/daemonsets`,
      '/apis',
    ]) {
      const res = await server.request(path, {
        token: server.token,
        headers: { 'User-Agent': 'kubectl/v1.32.0' },
      })
      expect(res.status, path).toBe(200)
      expect(res.body.endsWith('}\n'), path).toBe(true)
      expect(length(res), path).toBe(Buffer.byteLength(res.body))
    }
    const pretty = await server.request(`/apis/apps/v1/namespaces/${NS}/daemonsets/py`, {
      token: server.token,
      headers: { 'User-Agent': 'curl/8.5.0' },
    })
    expect(pretty.body).toMatch(/^\{\n {2}"[\s\S]*\n {2}"kind": "DaemonSet",\n[\s\S]*\n\}$/)
    expect(length(pretty)).toBe(Buffer.byteLength(pretty.body))
  })
})
