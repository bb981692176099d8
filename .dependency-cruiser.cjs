/**
 * The layers, each importing only those below it (docs/architecture.md draws them):
 *   apimachinery, agent-protocol, config  →  apis  →  settings (the variables, parsed)  →  limits (platform accounting)
 *   →  store | store-client | service-client | printers
 *   →  admission  →  controllers  →  api  →  the Worker entry
 * The Node side (agent, launcher, bench) stands on apimachinery, apis and agent-protocol only.
 */
const core = '^src/(apimachinery|agent-protocol|config\\.ts|web-platform\\.d\\.ts)'
const workerSide =
  '^(src/(api|edge|store-client|service-client|admission|controllers|certificates|printers|index\\.ts|env\\.ts)|durable-objects)(/|$)'

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle ties modules that should stand apart, type-only imports included.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'env-only-at-the-entry',
      severity: 'error',
      comment:
        "The Worker's full Env (src/env.ts) names the Durable Object classes: only the Worker entry uses it. Every other module names the bindings of its own layer (StoreBindings, ServiceBindings, AdmissionBindings, ControllerBindings, HostBindings, ApiBindings).",
      from: { path: '^(src|durable-objects)/', pathNot: '^src/(index|env)\\.ts$' },
      to: { path: '^src/env\\.ts$' },
    },
    {
      name: 'core-is-bottom',
      severity: 'error',
      comment:
        'apimachinery, agent-protocol and config are the bottom layer: they import nothing of ours above them.',
      from: { path: core },
      to: { path: '^(src|durable-objects)/', pathNot: core },
    },
    {
      name: 'apis-on-core',
      severity: 'error',
      comment: 'The served kinds stand on apimachinery only.',
      from: { path: '^src/apis/' },
      to: { path: '^(src|durable-objects)/', pathNot: [core, '^src/apis/'] },
    },
    {
      name: 'settings-on-apis',
      severity: 'error',
      comment:
        "The settings (the Worker's variables, parsed once) stand on the core and the served kinds' own parsers.",
      from: { path: '^src/settings/' },
      to: { path: '^(src|durable-objects)/', pathNot: [core, '^src/apis/', '^src/settings/'] },
    },
    {
      name: 'limits-on-core',
      severity: 'error',
      comment:
        'The platform limits and their accounting (strict mode) wrap every store, gateway and fetch call: they stand on the core alone.',
      from: { path: '^src/limits/' },
      to: { path: '^(src|durable-objects)/', pathNot: [core, '^src/limits/'] },
    },
    {
      name: 'store-under-api',
      severity: 'error',
      comment:
        'The store knows apimachinery, apis, the settings and the platform limits (strict mode counts what it is billed for), and implements the calls its client declares (src/store-client/bindings.ts); it is told whom to notify by the composition root, never by importing controllers.',
      from: { path: '^durable-objects/kind-store/' },
      to: {
        path: '^(src|durable-objects)/',
        pathNot: [
          core,
          '^src/apis/',
          '^src/settings/',
          '^src/limits/',
          '^src/store-client/bindings\\.ts$',
          '^durable-objects/kind-store/',
        ],
      },
    },
    {
      name: 'store-writes-generically',
      severity: 'error',
      comment:
        'What each kind does on a write reaches the store as the StoreKinds the Worker entry passes it (src/apis/store-strategy.ts, imported for its types only): at run time the store uses no more of the served kinds than their registry, its options and the views its reads and watches need.',
      from: { path: '^durable-objects/kind-store/' },
      to: {
        path: '^src/apis/',
        pathNot:
          '^src/apis/(registry|store-options|pod-references|patch-stream|crd/version-view)\\.ts$',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'controllers-under-api',
      severity: 'error',
      comment:
        'Controllers (and their host) use apis and the store client; never the HTTP layer, the store internals or the Worker entry.',
      from: { path: '^(src/controllers|durable-objects/controller-host)/' },
      to: {
        path: '^(src|durable-objects)/',
        pathNot: [
          core,
          '^src/apis/',
          '^src/settings/',
          '^src/limits/',
          '^src/certificates/',
          '^src/controllers/',
          '^src/store-client/',
          '^src/admission/',
          '^durable-objects/controller-host/',
        ],
      },
    },
    {
      name: 'controller-runtime-generic',
      severity: 'error',
      comment:
        "The controller runtime runs any controller: it imports no controller's folder (a controller registers its own actions with it), only src/controllers' shared modules.",
      from: { path: '^src/controllers/runtime/' },
      to: {
        path: '^src/controllers/',
        pathNot: [
          '^src/controllers/runtime/',
          '^src/controllers/shared/',
          '^src/controllers/(resources|bindings)\\.ts$',
        ],
      },
    },
    {
      name: 'printers-on-apis',
      severity: 'error',
      comment: 'Table printers format objects of the served kinds; nothing else.',
      from: { path: '^src/printers/' },
      to: { path: '^(src|durable-objects)/', pathNot: [core, '^src/apis/', '^src/printers/'] },
    },
    {
      name: 'store-client-on-apis',
      severity: 'error',
      comment: 'The store client addresses stores by kind; it knows nothing above apis.',
      from: { path: '^src/store-client/' },
      to: {
        path: '^(src|durable-objects)/',
        pathNot: [core, '^src/apis/', '^src/settings/', '^src/limits/', '^src/store-client/'],
      },
    },
    {
      name: 'service-client-on-stores',
      severity: 'error',
      comment:
        'Reaching a Service or a pod through the node tunnel: it reads Endpoints through the store client and dials the node gateway; nothing above.',
      from: { path: '^src/service-client/' },
      to: {
        path: '^(src|durable-objects)/',
        pathNot: [
          core,
          '^src/apis/',
          '^src/settings/',
          '^src/store-client/',
          '^src/service-client/',
          '^durable-objects/node-gateway/client\\.ts$',
        ],
      },
    },
    {
      name: 'admission-under-controllers',
      severity: 'error',
      comment:
        "Admission (plugins and webhooks) runs on every write, the API's and the controllers' alike: it stands on apis, the store client and the service client, never on controllers or HTTP.",
      from: { path: '^src/admission/' },
      to: {
        path: '^(src|durable-objects)/',
        pathNot: [
          core,
          '^src/apis/',
          '^src/settings/',
          '^src/limits/',
          '^src/store-client/',
          '^src/service-client/',
          '^src/admission/',
        ],
      },
    },
    {
      name: 'api-under-entry',
      severity: 'error',
      comment:
        'The HTTP layer (api, edge, node gateway) stands on everything below it but never on the Worker entry.',
      from: { path: '^(src/api|src/edge|durable-objects/node-gateway)/' },
      to: { path: '^src/index\\.ts$' },
    },
    {
      name: 'node-side-off-worker',
      severity: 'error',
      comment:
        'The agent, launcher and bench run on Node: they stand on apimachinery, apis and agent-protocol, never on Worker code.',
      from: { path: '^src/(agent|launcher|bench)/' },
      to: { path: workerSide, pathNot: '^src/bench/floor/worker\\.ts$' },
    },
    {
      name: 'agent-alone',
      severity: 'error',
      comment:
        'The agent is its own program: it does not import the launcher or the bench that start it.',
      from: { path: '^src/agent/' },
      to: { path: '^src/(launcher|bench)/' },
    },
    {
      name: 'launcher-under-bench',
      severity: 'error',
      comment: 'The bench starts clusters with the launcher; the launcher never needs the bench.',
      from: { path: '^src/launcher/' },
      to: { path: '^src/bench/' },
    },
    {
      name: 'src-not-tests',
      severity: 'error',
      comment: 'Product code never imports test code.',
      from: { path: '^(src|durable-objects)/' },
      to: { path: '^test/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
}
