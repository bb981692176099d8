/**
 * The baseline checks about the pod as a whole and its security options (upstream's
 * check_hostNamespaces, check_hostPathVolumes, check_sysctls, check_windowsHostProcess,
 * check_appArmorProfile, check_seLinuxOptions, check_seccompProfile_baseline), each with the
 * revisions policy version 1.32 knows.
 */
import { asRecord, objectsOf, type Json } from '../../apimachinery/json-value'
import { goQuote } from '../../apimachinery/go-format'
import {
  allContainers,
  allowed,
  annotationsOf,
  containerContext,
  containerName,
  forbidden,
  isSet,
  joinQuote,
  pluralize,
  podContext,
  setters,
  sortedSet,
  str,
  type Check,
  type CheckResult,
} from './check-helpers'

function hostNamespaces(_meta: Json, spec: Json): CheckResult {
  const shared = (['hostNetwork', 'hostPID', 'hostIPC'] as const)
    .filter((f) => spec[f] === true)
    .map((f) => `${f}=true`)
  return shared.length ? forbidden('host namespaces', shared.join(', ')) : allowed
}

function hostPathVolumes(_meta: Json, spec: Json): CheckResult {
  const names = objectsOf(spec.volumes)
    .filter((v) => isSet(v.hostPath))
    .map((v) => str(v.name))
  return names.length
    ? forbidden(
        'hostPath volumes',
        `${pluralize('volume', 'volumes', names.length)} ${joinQuote(names)}`,
      )
    : allowed
}

const sysctlsAllowed1_0 = [
  'kernel.shm_rmid_forced',
  'net.ipv4.ip_local_port_range',
  'net.ipv4.tcp_syncookies',
  'net.ipv4.ping_group_range',
  'net.ipv4.ip_unprivileged_port_start',
]
const sysctlsAllowed1_27 = [...sysctlsAllowed1_0, 'net.ipv4.ip_local_reserved_ports']
const sysctlsAllowed1_29 = [
  ...sysctlsAllowed1_27,
  'net.ipv4.tcp_keepalive_time',
  'net.ipv4.tcp_fin_timeout',
  'net.ipv4.tcp_keepalive_intvl',
  'net.ipv4.tcp_keepalive_probes',
]
const sysctlsAllowed1_32 = [...sysctlsAllowed1_29, 'net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem']

const sysctls =
  (safe: readonly string[]) =>
  (_meta: Json, spec: Json): CheckResult => {
    const bad = objectsOf(podContext(spec)?.sysctls)
      .map((s) => str(s.name))
      .filter((n) => !safe.includes(n))
    return bad.length ? forbidden('forbidden sysctls', bad.join(', ')) : allowed
  }

function windowsHostProcess(_meta: Json, spec: Json): CheckResult {
  const hostProcess = (sc: Json | undefined) =>
    !!sc && isSet(sc.windowsOptions) && asRecord(sc.windowsOptions).hostProcess === true
  const containers = allContainers(spec)
    .filter((c) => hostProcess(containerContext(c)))
    .map(containerName)
  const pod = hostProcess(podContext(spec))
  return pod || containers.length
    ? forbidden(
        'hostProcess',
        `${setters(pod, containers)} must not set securityContext.windowsOptions.hostProcess=true`,
      )
    : allowed
}

const appArmorAnnotationPrefix = 'container.apparmor.security.beta.kubernetes.io/'

function appArmorProfile(meta: Json, spec: Json): CheckResult {
  const badValues: string[] = []
  const badType = (sc: Json | undefined): boolean => {
    if (!sc || !isSet(sc.appArmorProfile)) return false
    const type = str(asRecord(sc.appArmorProfile).type)
    if (type === 'RuntimeDefault' || type === 'Localhost') return false
    badValues.push(type)
    return true
  }
  const pod = badType(podContext(spec))
  const containers = allContainers(spec)
    .filter((c) => badType(containerContext(c)))
    .map(containerName)
  const fields = setters(pod, containers)
  const badSetters = fields ? [fields] : []
  const annotations = Object.entries(annotationsOf(meta))
    .filter(
      ([k, v]) =>
        k.startsWith(appArmorAnnotationPrefix) &&
        !(v === '' || v === 'runtime/default' || v.startsWith('localhost/')),
    )
    .map(([k, v]) => `${k}=${goQuote(v)}`)
    .sort()
  const values = [...sortedSet(badValues), ...annotations]
  if (annotations.length)
    badSetters.push(pluralize('annotation', 'annotations', annotations.length))
  if (!badSetters.length) return allowed
  return forbidden(
    pluralize('forbidden AppArmor profile', 'forbidden AppArmor profiles', values.length),
    `${badSetters.join(' and ')} must not set AppArmor profile type to ${joinQuote(values)}`,
  )
}

const seLinuxTypes1_0 = ['', 'container_t', 'container_init_t', 'container_kvm_t']
const seLinuxTypes1_31 = [...seLinuxTypes1_0, 'container_engine_t']

const seLinuxOptions =
  (allowedTypes: readonly string[]) =>
  (_meta: Json, spec: Json): CheckResult => {
    const badTypes: string[] = []
    let setUser = false
    let setRole = false
    const bad = (sc: Json | undefined): boolean => {
      if (!sc || !isSet(sc.seLinuxOptions)) return false
      const opts = asRecord(sc.seLinuxOptions)
      let valid = true
      if (!allowedTypes.includes(str(opts.type))) {
        valid = false
        badTypes.push(str(opts.type))
      }
      if (str(opts.user)) {
        valid = false
        setUser = true
      }
      if (str(opts.role)) {
        valid = false
        setRole = true
      }
      return !valid
    }
    const pod = bad(podContext(spec))
    const containers = allContainers(spec)
      .filter((c) => bad(containerContext(c)))
      .map(containerName)
    if (!pod && !containers.length) return allowed
    const types = sortedSet(badTypes)
    const data = types.length
      ? [`${pluralize('type', 'types', types.length)} ${joinQuote(types)}`]
      : []
    if (setUser) data.push('user may not be set')
    if (setRole) data.push('role may not be set')
    return forbidden(
      'seLinuxOptions',
      `${setters(pod, containers)} set forbidden securityContext.seLinuxOptions: ${data.join('; ')}`,
    )
  }

const seccompPodAnnotation = 'seccomp.security.alpha.kubernetes.io/pod'
const seccompContainerAnnotationPrefix = 'container.seccomp.security.alpha.kubernetes.io/'

/** v1.0 to v1.18: the seccomp annotations may only name the runtime's default or a local profile. */
function seccompProfileBaseline1_0(meta: Json, spec: Json): CheckResult {
  const annotations = annotationsOf(meta)
  const validValue = (v: string) =>
    v === 'runtime/default' || v === 'docker/default' || v.startsWith('localhost/')
  const bad: string[] = []
  const check = (key: string) => {
    const v = annotations[key]
    if (v !== undefined && !validValue(v)) bad.push(`${key}=${goQuote(v)}`)
  }
  check(seccompPodAnnotation)
  for (const c of allContainers(spec)) check(seccompContainerAnnotationPrefix + containerName(c))
  const forbiddenAnnotations = sortedSet(bad)
  return forbiddenAnnotations.length
    ? forbidden(
        'seccompProfile',
        `forbidden ${pluralize('annotation', 'annotations', forbiddenAnnotations.length)} ${forbiddenAnnotations.join(', ')}`,
      )
    : allowed
}

export const validSeccompType = (t: string): boolean => t === 'Localhost' || t === 'RuntimeDefault'

/** v1.19 on: securityContext.seccompProfile.type, where set, is RuntimeDefault or Localhost. */
function seccompProfileBaseline1_19(_meta: Json, spec: Json): CheckResult {
  const badValues: string[] = []
  const bad = (sc: Json | undefined): boolean => {
    if (!sc || !isSet(sc.seccompProfile)) return false
    const type = str(asRecord(sc.seccompProfile).type)
    if (validSeccompType(type)) return false
    badValues.push(type)
    return true
  }
  const pod = bad(podContext(spec))
  const containers = allContainers(spec)
    .filter((c) => bad(containerContext(c)))
    .map(containerName)
  if (!pod && !containers.length) return allowed
  return forbidden(
    'seccompProfile',
    `${setters(pod, containers)} must not set securityContext.seccompProfile.type to ${joinQuote(sortedSet(badValues))}`,
  )
}

export const baselinePodChecks: readonly Check[] = [
  {
    id: 'appArmorProfile',
    level: 'baseline',
    versions: [{ minimumVersion: 0, checkPod: appArmorProfile }],
  },
  {
    id: 'hostNamespaces',
    level: 'baseline',
    versions: [{ minimumVersion: 0, checkPod: hostNamespaces }],
  },
  {
    id: 'hostPathVolumes',
    level: 'baseline',
    versions: [{ minimumVersion: 0, checkPod: hostPathVolumes }],
  },
  {
    id: 'seLinuxOptions',
    level: 'baseline',
    versions: [
      { minimumVersion: 0, checkPod: seLinuxOptions(seLinuxTypes1_0) },
      { minimumVersion: 31, checkPod: seLinuxOptions(seLinuxTypes1_31) },
    ],
  },
  {
    id: 'seccompProfile_baseline',
    level: 'baseline',
    versions: [
      { minimumVersion: 0, checkPod: seccompProfileBaseline1_0 },
      { minimumVersion: 19, checkPod: seccompProfileBaseline1_19 },
    ],
  },
  {
    id: 'sysctls',
    level: 'baseline',
    versions: [
      { minimumVersion: 0, checkPod: sysctls(sysctlsAllowed1_0) },
      { minimumVersion: 27, checkPod: sysctls(sysctlsAllowed1_27) },
      { minimumVersion: 29, checkPod: sysctls(sysctlsAllowed1_29) },
      { minimumVersion: 32, checkPod: sysctls(sysctlsAllowed1_32) },
    ],
  },
  {
    id: 'windowsHostProcess',
    level: 'baseline',
    versions: [{ minimumVersion: 0, checkPod: windowsHostProcess }],
  },
]
