/**
 * The baseline checks of each container's settings (upstream's check_capabilities_baseline,
 * check_hostPorts, check_privileged, check_procMount).
 */
import { asRecord, objectsOf, type Json } from '../../apimachinery/json-value'
import {
  allContainers,
  allowed,
  containerContext,
  containerList,
  containerName,
  forbidden,
  isSet,
  joinQuote,
  pluralize,
  sortedSet,
  str,
  type Check,
  type CheckResult,
} from './check-helpers'

/** The capabilities a container runtime grants by default, which baseline lets a container add. */
const defaultCapabilities = [
  'AUDIT_WRITE',
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'MKNOD',
  'NET_BIND_SERVICE',
  'SETFCAP',
  'SETGID',
  'SETPCAP',
  'SETUID',
  'SYS_CHROOT',
]

/** securityContext.capabilities.add of a container, when capabilities is set (else undefined). */
export function addedCapabilities(c: Json): string[] | undefined {
  const sc = containerContext(c)
  if (!sc || !isSet(sc.capabilities)) return undefined
  const add = asRecord(sc.capabilities).add
  return Array.isArray(add) ? add.map(str) : []
}

function capabilitiesBaseline(_meta: Json, spec: Json): CheckResult {
  const badContainers: string[] = []
  const nonDefault: string[] = []
  for (const c of allContainers(spec)) {
    const bad = (addedCapabilities(c) ?? []).filter((cap) => !defaultCapabilities.includes(cap))
    if (!bad.length) continue
    badContainers.push(containerName(c))
    nonDefault.push(...bad)
  }
  if (!badContainers.length) return allowed
  return forbidden(
    'non-default capabilities',
    `${containerList(badContainers)} must not include ${joinQuote(sortedSet(nonDefault))} in securityContext.capabilities.add`,
  )
}

function hostPorts(_meta: Json, spec: Json): CheckResult {
  const badContainers: string[] = []
  const ports: string[] = []
  for (const c of allContainers(spec)) {
    const used = objectsOf(c.ports)
      .map((p) => p.hostPort)
      .filter((p): p is number => typeof p === 'number' && p !== 0)
    if (!used.length) continue
    badContainers.push(containerName(c))
    ports.push(...used.map(String))
  }
  if (!badContainers.length) return allowed
  const list = sortedSet(ports)
  const n = badContainers.length
  return forbidden(
    'hostPort',
    `${containerList(badContainers)} ${pluralize('uses', 'use', n)} ${pluralize('hostPort', 'hostPorts', list.length)} ${list.join(', ')}`,
  )
}

function privileged(_meta: Json, spec: Json): CheckResult {
  const bad = allContainers(spec)
    .filter((c) => containerContext(c)?.privileged === true)
    .map(containerName)
  return bad.length
    ? forbidden('privileged', `${containerList(bad)} must not set securityContext.privileged=true`)
    : allowed
}

function procMount(_meta: Json, spec: Json): CheckResult {
  const badContainers: string[] = []
  const types: string[] = []
  for (const c of allContainers(spec)) {
    const sc = containerContext(c)
    if (!sc || !isSet(sc.procMount) || sc.procMount === 'Default') continue
    badContainers.push(containerName(c))
    types.push(str(sc.procMount))
  }
  if (!badContainers.length) return allowed
  return forbidden(
    'procMount',
    `${containerList(badContainers)} must not set securityContext.procMount to ${joinQuote(sortedSet(types))}`,
  )
}

export const baselineContainerChecks: readonly Check[] = [
  {
    id: 'capabilities_baseline',
    level: 'baseline',
    versions: [{ minimumVersion: 0, checkPod: capabilitiesBaseline }],
  },
  { id: 'hostPorts', level: 'baseline', versions: [{ minimumVersion: 0, checkPod: hostPorts }] },
  { id: 'privileged', level: 'baseline', versions: [{ minimumVersion: 0, checkPod: privileged }] },
  { id: 'procMount', level: 'baseline', versions: [{ minimumVersion: 0, checkPod: procMount }] },
]
