import { describe, expect, it } from 'vitest'
import type { Json } from '../../../../src/apimachinery/json-value'
import {
  allChecks,
  checkPod,
  forbiddenDetail,
  forbiddenReason,
} from '../../../../src/admission/pod-security/evaluate'
import { parseVersion, type Level } from '../../../../src/apis/pod-security/levels'

// Every Pod Security check of policy version 1.32, each with a pod that passes it and one that
// fails it, evaluated at baseline and at restricted; the message is what kubectl shows after
// `violates PodSecurity "<level>:latest": `.

interface PodJson {
  metadata: Json
  spec: Json
}

/** A pod that passes restricted (and so baseline): the base each case changes. */
function restrictedPod(): PodJson {
  return {
    metadata: { name: 'p', annotations: {} },
    spec: {
      securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
      containers: [
        {
          name: 'app',
          image: 'busybox',
          securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
        },
      ],
    },
  }
}

type Change = (pod: PodJson) => void
const podSc = (p: PodJson) => p.spec.securityContext as Json
const app = (p: PodJson) => (p.spec.containers as Json[])[0]!
const appSc = (p: PodJson) => app(p).securityContext as Json

const evaluated = (level: Level, change: Change, version = 'latest') => {
  const pod = restrictedPod()
  change(pod)
  const result = checkPod({ level, version: parseVersion(version).version }, pod.metadata, pod.spec)
  return result.allowed ? null : forbiddenDetail(result)
}

/** [check, case, change, at baseline, at restricted]: null where the pod is allowed. */
const cases: [string, string, Change, string | null, string | null][] = [
  // baseline
  [
    'windowsHostProcess',
    'hostProcess false',
    (p) => (podSc(p).windowsOptions = { hostProcess: false }),
    null,
    null,
  ],
  [
    'windowsHostProcess',
    'hostProcess on the pod and a container',
    (p) => {
      podSc(p).windowsOptions = { hostProcess: true }
      appSc(p).windowsOptions = { hostProcess: true }
    },
    'hostProcess (pod and container "app" must not set securityContext.windowsOptions.hostProcess=true)',
    'hostProcess (pod and container "app" must not set securityContext.windowsOptions.hostProcess=true)',
  ],
  [
    'hostNamespaces',
    'host namespaces false',
    (p) => Object.assign(p.spec, { hostNetwork: false, hostPID: false, hostIPC: false }),
    null,
    null,
  ],
  [
    'hostNamespaces',
    'every host namespace',
    (p) => Object.assign(p.spec, { hostNetwork: true, hostPID: true, hostIPC: true }),
    'host namespaces (hostNetwork=true, hostPID=true, hostIPC=true)',
    'host namespaces (hostNetwork=true, hostPID=true, hostIPC=true)',
  ],
  ['privileged', 'privileged false', (p) => (appSc(p).privileged = false), null, null],
  [
    'privileged',
    'privileged true',
    (p) => (appSc(p).privileged = true),
    'privileged (container "app" must not set securityContext.privileged=true)',
    'privileged (container "app" must not set securityContext.privileged=true)',
  ],
  [
    'capabilities_baseline',
    'adding NET_BIND_SERVICE',
    (p) => ((appSc(p).capabilities as Json).add = ['NET_BIND_SERVICE']),
    null,
    null,
  ],
  [
    'capabilities_baseline',
    'adding a default capability',
    (p) => ((appSc(p).capabilities as Json).add = ['CHOWN']),
    null,
    'unrestricted capabilities (container "app" must not include "CHOWN" in securityContext.capabilities.add)',
  ],
  [
    'capabilities_baseline',
    'adding capabilities beyond the default set',
    (p) => ((appSc(p).capabilities as Json).add = ['SYS_TIME', 'NET_ADMIN']),
    'non-default capabilities (container "app" must not include "NET_ADMIN", "SYS_TIME" in securityContext.capabilities.add)',
    'unrestricted capabilities (container "app" must not include "NET_ADMIN", "SYS_TIME" in securityContext.capabilities.add)',
  ],
  [
    'hostPathVolumes',
    'an emptyDir',
    (p) => (p.spec.volumes = [{ name: 'scratch', emptyDir: {} }]),
    null,
    null,
  ],
  [
    'hostPathVolumes',
    'a hostPath volume',
    (p) => (p.spec.volumes = [{ name: 'host', hostPath: { path: '/' } }]),
    'hostPath volumes (volume "host")',
    'restricted volume types (volume "host" uses restricted volume type "hostPath")',
  ],
  [
    'hostPorts',
    'a container port alone',
    (p) => (app(p).ports = [{ containerPort: 80, hostPort: 0 }]),
    null,
    null,
  ],
  [
    'hostPorts',
    'host ports in two containers',
    (p) => {
      app(p).ports = [{ containerPort: 80, hostPort: 8080 }]
      ;(p.spec.containers as Json[]).push({
        ...structuredClone(app(p)),
        name: 'side',
        ports: [{ containerPort: 81, hostPort: 10080 }],
      })
    },
    'hostPort (containers "app", "side" use hostPorts 10080, 8080)',
    'hostPort (containers "app", "side" use hostPorts 10080, 8080)',
  ],
  [
    'appArmorProfile',
    'RuntimeDefault and a localhost annotation',
    (p) => {
      podSc(p).appArmorProfile = { type: 'RuntimeDefault' }
      p.metadata.annotations = {
        'container.apparmor.security.beta.kubernetes.io/app': 'localhost/web',
      }
    },
    null,
    null,
  ],
  [
    'appArmorProfile',
    'an Unconfined pod profile',
    (p) => (podSc(p).appArmorProfile = { type: 'Unconfined' }),
    'forbidden AppArmor profile (pod must not set AppArmor profile type to "Unconfined")',
    'forbidden AppArmor profile (pod must not set AppArmor profile type to "Unconfined")',
  ],
  [
    'appArmorProfile',
    'an unconfined annotation',
    (p) =>
      (p.metadata.annotations = {
        'container.apparmor.security.beta.kubernetes.io/app': 'unconfined',
      }),
    'forbidden AppArmor profile (annotation must not set AppArmor profile type to "container.apparmor.security.beta.kubernetes.io/app="unconfined"")',
    'forbidden AppArmor profile (annotation must not set AppArmor profile type to "container.apparmor.security.beta.kubernetes.io/app="unconfined"")',
  ],
  [
    'seLinuxOptions',
    'container_t with a level',
    (p) => (appSc(p).seLinuxOptions = { type: 'container_t', level: 's0:c123,c456' }),
    null,
    null,
  ],
  [
    'seLinuxOptions',
    'a custom type and user',
    (p) => (appSc(p).seLinuxOptions = { type: 'spc_t', user: 'root' }),
    'seLinuxOptions (container "app" set forbidden securityContext.seLinuxOptions: type "spc_t"; user may not be set)',
    'seLinuxOptions (container "app" set forbidden securityContext.seLinuxOptions: type "spc_t"; user may not be set)',
  ],
  ['procMount', 'the Default proc mount', (p) => (appSc(p).procMount = 'Default'), null, null],
  [
    'procMount',
    'an Unmasked proc mount',
    (p) => (appSc(p).procMount = 'Unmasked'),
    'procMount (container "app" must not set securityContext.procMount to "Unmasked")',
    'procMount (container "app" must not set securityContext.procMount to "Unmasked")',
  ],
  [
    'seccompProfile_baseline',
    'a Localhost profile',
    (p) => (podSc(p).seccompProfile = { type: 'Localhost', localhostProfile: 'p.json' }),
    null,
    null,
  ],
  [
    'seccompProfile_baseline',
    'an Unconfined pod profile',
    (p) => (podSc(p).seccompProfile = { type: 'Unconfined' }),
    'seccompProfile (pod must not set securityContext.seccompProfile.type to "Unconfined")',
    'seccompProfile (pod must not set securityContext.seccompProfile.type to "Unconfined")',
  ],
  [
    'sysctls',
    'a safe sysctl (new in v1.32)',
    (p) => (podSc(p).sysctls = [{ name: 'net.ipv4.tcp_rmem', value: '4096 87380 16777216' }]),
    null,
    null,
  ],
  [
    'sysctls',
    'an unsafe sysctl',
    (p) =>
      (podSc(p).sysctls = [
        { name: 'kernel.msgmax', value: '65536' },
        { name: 'net.ipv4.tcp_syncookies', value: '1' },
      ]),
    'forbidden sysctls (kernel.msgmax)',
    'forbidden sysctls (kernel.msgmax)',
  ],
  // restricted
  [
    'restrictedVolumes',
    'every allowed volume type',
    (p) =>
      (p.spec.volumes = [
        { name: 'a', configMap: { name: 'c' } },
        { name: 'b', secret: { secretName: 's' } },
        { name: 'c', persistentVolumeClaim: { claimName: 'pvc' } },
        { name: 'd', projected: { sources: [] } },
        { name: 'e', downwardAPI: {} },
        { name: 'f', csi: { driver: 'x' } },
        { name: 'g', ephemeral: { volumeClaimTemplate: { spec: {} } } },
        { name: 'h', emptyDir: {} },
      ]),
    null,
    null,
  ],
  [
    'restrictedVolumes',
    'nfs and gitRepo volumes',
    (p) =>
      (p.spec.volumes = [
        { name: 'data', nfs: { server: 'nfs', path: '/' } },
        { name: 'src', gitRepo: { repository: 'r' } },
      ]),
    null,
    'restricted volume types (volumes "data", "src" use restricted volume types "gitRepo", "nfs")',
  ],
  [
    'allowPrivilegeEscalation',
    'left unset',
    (p) => delete appSc(p).allowPrivilegeEscalation,
    null,
    'allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false)',
  ],
  [
    'capabilities_restricted',
    'dropping ALL, adding NET_BIND_SERVICE',
    (p) => (appSc(p).capabilities = { drop: ['ALL'], add: ['NET_BIND_SERVICE'] }),
    null,
    null,
  ],
  [
    'capabilities_restricted',
    'dropping less than ALL',
    (p) => (appSc(p).capabilities = { drop: ['NET_RAW'] }),
    null,
    'unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"])',
  ],
  [
    'runAsNonRoot',
    'set on the container only',
    (p) => {
      delete podSc(p).runAsNonRoot
      appSc(p).runAsNonRoot = true
    },
    null,
    null,
  ],
  [
    'runAsNonRoot',
    'unset',
    (p) => delete podSc(p).runAsNonRoot,
    null,
    'runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true)',
  ],
  [
    'runAsNonRoot',
    'false on a container',
    (p) => (appSc(p).runAsNonRoot = false),
    null,
    'runAsNonRoot != true (container "app" must not set securityContext.runAsNonRoot=false)',
  ],
  ['runAsUser', 'a non-zero user', (p) => (podSc(p).runAsUser = 1000), null, null],
  [
    'runAsUser',
    'user 0 on the pod and a container',
    (p) => {
      podSc(p).runAsUser = 0
      appSc(p).runAsUser = 0
    },
    null,
    'runAsUser=0 (pod and container "app" must not set runAsUser=0)',
  ],
  [
    'seccompProfile_restricted',
    'set on the container only',
    (p) => {
      delete podSc(p).seccompProfile
      appSc(p).seccompProfile = { type: 'RuntimeDefault' }
    },
    null,
    null,
  ],
  [
    'seccompProfile_restricted',
    'unset',
    (p) => delete podSc(p).seccompProfile,
    null,
    'seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
  ],
]

describe('every Pod Security check, at baseline and restricted', () => {
  it('covers every check of policy version 1.32 with a passing and a failing pod', () => {
    const covered = (want: 'pass' | 'fail') =>
      new Set(
        cases
          .filter(([, , , b, r]) =>
            want === 'pass' ? b === null || r === null : b !== null || r !== null,
          )
          .map(([id]) => id),
      )
    const ids = allChecks.map((c) => c.id)
    expect(ids).toHaveLength(17)
    expect([...covered('pass')].sort()).toEqual([...ids].sort())
    expect([...covered('fail')].sort()).toEqual([...ids].sort())
  })

  it.each(cases)('%s: %s', (_id, _case, change, baseline, restricted) => {
    expect(evaluated('privileged', change)).toBeNull()
    expect(evaluated('baseline', change)).toBe(baseline)
    expect(evaluated('restricted', change)).toBe(restricted)
  })
})

describe('the evaluation', () => {
  it('reports every violation in upstream order: baseline checks by ID, then restricted ones', () => {
    const pod = {
      metadata: {},
      spec: {
        hostNetwork: true,
        containers: [
          {
            name: 'web',
            image: 'nginx',
            securityContext: { privileged: true },
            ports: [{ containerPort: 80, hostPort: 80 }],
          },
        ],
      },
    }
    const result = checkPod({ level: 'restricted', version: 'latest' }, pod.metadata, pod.spec)
    expect(forbiddenReason(result)).toBe(
      'host namespaces, hostPort, privileged, allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
    )
    expect(
      forbiddenDetail(checkPod({ level: 'baseline', version: 'latest' }, pod.metadata, pod.spec)),
    ).toBe(
      'host namespaces (hostNetwork=true), hostPort (container "web" uses hostPort 80), privileged (container "web" must not set securityContext.privileged=true)',
    )
  })

  it('visits init and ephemeral containers too', () => {
    const pod = restrictedPod()
    pod.spec.initContainers = [
      { name: 'init', image: 'busybox', securityContext: { privileged: true } },
    ]
    pod.spec.ephemeralContainers = [
      { name: 'debug', image: 'busybox', securityContext: { privileged: true } },
    ]
    expect(
      forbiddenDetail(checkPod({ level: 'baseline', version: 'latest' }, pod.metadata, pod.spec)),
    ).toBe('privileged (containers "init", "debug" must not set securityContext.privileged=true)')
  })

  it('runs the revision of each check for the version asked, and the newest for latest or a later version', () => {
    const engine: Change = (p) => (appSc(p).seLinuxOptions = { type: 'container_engine_t' })
    expect(evaluated('baseline', engine, 'v1.30')).toBe(
      'seLinuxOptions (container "app" set forbidden securityContext.seLinuxOptions: type "container_engine_t")',
    )
    expect(evaluated('baseline', engine, 'v1.31')).toBeNull()
    const rmem: Change = (p) => (podSc(p).sysctls = [{ name: 'net.ipv4.tcp_rmem', value: '1' }])
    expect(evaluated('baseline', rmem, 'v1.31')).toBe('forbidden sysctls (net.ipv4.tcp_rmem)')
    expect(evaluated('baseline', rmem, 'v1.99')).toBeNull()
    // Before v1.22 restricted checks added capabilities as baseline does, and before v1.23 not runAsUser.
    const caps: Change = (p) => (appSc(p).capabilities = { add: ['CHOWN'] })
    expect(evaluated('restricted', caps, 'v1.21')).toBeNull()
    expect(evaluated('restricted', (p) => (podSc(p).runAsUser = 0), 'v1.22')).toBeNull()
    // Before v1.19, seccomp is the annotations'.
    const annotated: Change = (p) => {
      delete podSc(p).seccompProfile
      p.metadata.annotations = { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined' }
    }
    expect(evaluated('baseline', annotated, 'v1.18')).toBe(
      'seccompProfile (forbidden annotation seccomp.security.alpha.kubernetes.io/pod="unconfined")',
    )
    expect(evaluated('baseline', annotated, 'v1.19')).toBeNull()
  })

  it('passes a Windows pod on the Linux-only restricted checks from v1.25', () => {
    const windows: Change = (p) => {
      p.spec.os = { name: 'windows' }
      delete podSc(p).seccompProfile
      appSc(p).capabilities = null
      delete appSc(p).allowPrivilegeEscalation
    }
    expect(evaluated('restricted', windows, 'v1.25')).toBeNull()
    expect(evaluated('restricted', windows, 'v1.24')).toBe(
      'allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]), seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    )
  })
})
