import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type TestServer } from './helpers/server'
import { killPythons, runPython, startPython as startScript } from './helpers/python'
import { waitFor } from './helpers/wait'

// The official Python client as Debian packages it (python3-kubernetes, installed by .ci/run), run
// by /usr/bin/python3 against the launcher with the kubeconfig it writes: its own HTTP stack
// (urllib3), TLS setup, query spelling (`watch=True`) and typed models.

const NS = 'python-e2e'

const python = (server: TestServer, script: string, args: string[] = []) =>
  runPython(server, NS, script, args)
const startPython = (server: TestServer, script: string, args: string[] = []) =>
  startScript(server, NS, script, args)

describe('python3-kubernetes client', () => {
  let server: TestServer

  beforeAll(async () => {
    server = await startServer()
    await python(server, `core.create_namespace({"metadata": {"name": NS}})`)
  })

  afterAll(async () => {
    killPythons()
    await server?.dispose()
  })

  it('creates and lists into typed models', async () => {
    const [listed] = await python(
      server,
      `
for name, k in (("list-a", "1"), ("list-b", "2")):
    core.create_namespaced_config_map(NS, {"metadata": {"name": name, "labels": {"set": "list"}}, "data": {"k": k}})
res = core.list_namespaced_config_map(NS, label_selector="set=list")
out({"kind": type(res).__name__, "rv": res.metadata.resource_version, "items": [[i.metadata.name, i.data["k"]] for i in res.items]})
`,
    )
    expect(listed).toEqual({
      kind: 'V1ConfigMapList',
      rv: expect.stringMatching(/^\d+$/),
      items: [
        ['list-a', '1'],
        ['list-b', '2'],
      ],
    })
  })

  it('watches from a resourceVersion: the changes since then, then live ones', async () => {
    const [start] = await python(
      server,
      `out(core.create_namespaced_config_map(NS, {"metadata": {"name": "watch-a"}, "data": {"k": "1"}}).metadata.resource_version)`,
    )
    await python(
      server,
      `core.create_namespaced_config_map(NS, {"metadata": {"name": "watch-b"}, "data": {"k": "2"}})`,
    )
    // watch.Watch sends watch=True; the stream ends once the third event is in (timeout_seconds bounds it).
    const watcher = startPython(
      server,
      `
w = watch.Watch()
seen = 0
for ev in w.stream(core.list_namespaced_config_map, NS, resource_version=sys.argv[2], timeout_seconds=50):
    out([ev["type"], ev["object"].metadata.name, ev["object"].data])
    seen += 1
    if seen == 3:
        w.stop()
`,
      [String(start)],
    )
    await waitFor(() => watcher.lines.length >= 1, {
      what: 'the replayed event',
      timeoutMs: 30_000,
    })
    await python(server, `core.patch_namespaced_config_map("watch-a", NS, {"data": {"k": "live"}})`)
    await python(server, `core.create_namespaced_config_map(NS, {"metadata": {"name": "watch-c"}})`)
    const { code, stderr } = await watcher.done
    expect(stderr).toBe('')
    expect(code).toBe(0)
    expect(watcher.lines).toEqual([
      ['ADDED', 'watch-b', { k: '2' }],
      ['MODIFIED', 'watch-a', { k: 'live' }],
      ['ADDED', 'watch-c', null],
    ])
  })

  it('patches with strategic merge and reads the typed Deployment back', async () => {
    const [patched] = await python(
      server,
      `
apps.create_namespaced_deployment(NS, {
    "metadata": {"name": "web"},
    "spec": {"selector": {"matchLabels": {"app": "web"}}, "template": {"metadata": {"labels": {"app": "web"}},
        "spec": {"containers": [{"name": "a", "image": "nginx:1", "env": [{"name": "EX", "value": "1"}]}]}}}})
apps.patch_namespaced_deployment("web", NS, {"spec": {"replicas": 3, "template": {"spec": {"containers": [{"name": "a", "image": "nginx:2"}]}}}})
d = apps.read_namespaced_deployment("web", NS)
c = d.spec.template.spec.containers[0]
out({"replicas": d.spec.replicas, "image": c.image, "env": [[e.name, e.value] for e in c.env], "generation": d.metadata.generation})
`,
    )
    // A strategic merge patch keeps the container's env: containers merge by name.
    expect(patched).toEqual({ replicas: 3, image: 'nginx:2', env: [['EX', '1']], generation: 2 })
  })

  it('gets a 400 naming the field for a value of the wrong type, and nothing is stored', async () => {
    const [refused] = await python(
      server,
      `
body = {"metadata": {"name": "typed"}, "spec": {"selector": {"matchLabels": {"app": "t"}}, "template": {"metadata": {"labels": {"app": "t"}},
    "spec": {"containers": [{"name": "a", "image": "nginx:1", "env": [{"name": True, "value": "2"}]}]}}}}
try:
    apps.create_namespaced_deployment(NS, body)
    out("created")
except client.exceptions.ApiException as e:
    status = json.loads(e.body)
    try:
        apps.read_namespaced_deployment("typed", NS)
        stored = True
    except client.exceptions.ApiException as e2:
        stored = e2.status != 404
    out({"status": e.status, "reason": status["reason"], "message": status["message"], "stored": stored})
`,
    )
    expect(refused).toEqual({
      status: 400,
      reason: 'BadRequest',
      message:
        'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal bool into Go struct field EnvVar.spec.template.spec.containers.env.name of type string',
      stored: false,
    })
  })
})
