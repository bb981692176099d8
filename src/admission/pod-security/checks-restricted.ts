/**
 * The restricted checks (upstream's check_allowPrivilegeEscalation, check_capabilities_restricted,
 * check_restrictedVolumes, check_runAsNonRoot, check_runAsUser, check_seccompProfile_restricted),
 * with the baseline checks each one replaces at the restricted level.
 */
import { asRecord, objectsOf, type Json } from '../../apimachinery/json-value'
import { addedCapabilities } from './checks-baseline-containers'
import { validSeccompType } from './checks-baseline-pod'
import {
  allContainers,
  allowed,
  containerContext,
  containerList,
  containerName,
  forbidden,
  isSet,
  isWindowsPod,
  joinQuote,
  pluralize,
  podContext,
  setters,
  sortedSet,
  str,
  type Check,
  type CheckPod,
  type CheckResult,
} from './check-helpers'

/** From v1.25, a Windows pod passes the checks that only mean something on Linux. */
const exceptWindows =
  (check: CheckPod): CheckPod =>
  (meta, spec) =>
    isWindowsPod(spec) ? allowed : check(meta, spec)

function allowPrivilegeEscalation(_meta: Json, spec: Json): CheckResult {
  const bad = allContainers(spec)
    .filter((c) => containerContext(c)?.allowPrivilegeEscalation !== false)
    .map(containerName)
  return bad.length
    ? forbidden(
        'allowPrivilegeEscalation != false',
        `${containerList(bad)} must set securityContext.allowPrivilegeEscalation=false`,
      )
    : allowed
}

function capabilitiesRestricted(_meta: Json, spec: Json): CheckResult {
  const missingDropAll: string[] = []
  const addingForbidden: string[] = []
  const forbiddenCaps: string[] = []
  for (const c of allContainers(spec)) {
    const added = addedCapabilities(c)
    if (added === undefined) {
      missingDropAll.push(containerName(c))
      continue
    }
    const drop = asRecord(containerContext(c)?.capabilities).drop
    if (!(Array.isArray(drop) && drop.includes('ALL'))) missingDropAll.push(containerName(c))
    const bad = added.filter((cap) => cap !== 'NET_BIND_SERVICE')
    if (bad.length) {
      addingForbidden.push(containerName(c))
      forbiddenCaps.push(...bad)
    }
  }
  const details: string[] = []
  if (missingDropAll.length)
    details.push(
      `${containerList(missingDropAll)} must set securityContext.capabilities.drop=["ALL"]`,
    )
  if (addingForbidden.length)
    details.push(
      `${containerList(addingForbidden)} must not include ${joinQuote(sortedSet(forbiddenCaps))} in securityContext.capabilities.add`,
    )
  return details.length ? forbidden('unrestricted capabilities', details.join('; ')) : allowed
}

/** The inline volume sources restricted allows. */
const allowedVolumeSources = [
  'configMap',
  'csi',
  'downwardAPI',
  'emptyDir',
  'ephemeral',
  'persistentVolumeClaim',
  'projected',
  'secret',
]

/** The other sources, named in upstream's order of precedence. */
const restrictedVolumeSources = [
  'hostPath',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'gitRepo',
  'nfs',
  'iscsi',
  'glusterfs',
  'rbd',
  'flexVolume',
  'cinder',
  'cephfs',
  'flocker',
  'fc',
  'azureFile',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'portworxVolume',
  'scaleIO',
  'storageos',
]

/** A volume that names no source at all is an emptyDir, as core/v1 defaulting makes it. */
const defaultsToEmptyDir = (v: Json) =>
  ![...allowedVolumeSources, ...restrictedVolumeSources, 'image'].some((s) => isSet(v[s]))

function restrictedVolumes(_meta: Json, spec: Json): CheckResult {
  const badVolumes: string[] = []
  const badTypes: string[] = []
  for (const v of objectsOf(spec.volumes)) {
    if (allowedVolumeSources.some((s) => isSet(v[s])) || defaultsToEmptyDir(v)) continue
    badVolumes.push(str(v.name))
    badTypes.push(restrictedVolumeSources.find((s) => isSet(v[s])) ?? 'unknown')
  }
  if (!badVolumes.length) return allowed
  const types = sortedSet(badTypes)
  const n = badVolumes.length
  return forbidden(
    'restricted volume types',
    `${pluralize('volume', 'volumes', n)} ${joinQuote(badVolumes)} ${pluralize('uses', 'use', n)} ${pluralize('restricted volume type', 'restricted volume types', types.length)} ${joinQuote(types)}`,
  )
}

function runAsNonRoot(_meta: Json, spec: Json): CheckResult {
  const podValue = podContext(spec)?.runAsNonRoot
  const podBad = isSet(podValue) && podValue === false
  const podSet = isSet(podValue) && podValue !== false
  const explicit: string[] = []
  const implicit: string[] = []
  for (const c of allContainers(spec)) {
    const value = containerContext(c)?.runAsNonRoot
    if (isSet(value)) {
      if (value === false) explicit.push(containerName(c))
    } else if (!podSet) implicit.push(containerName(c))
  }
  if (podBad || explicit.length)
    return forbidden(
      'runAsNonRoot != true',
      `${setters(podBad, explicit)} must not set securityContext.runAsNonRoot=false`,
    )
  if (implicit.length)
    return forbidden(
      'runAsNonRoot != true',
      `pod or ${containerList(implicit)} must set securityContext.runAsNonRoot=true`,
    )
  return allowed
}

function runAsUser(_meta: Json, spec: Json): CheckResult {
  const pod = podContext(spec)?.runAsUser === 0
  const containers = allContainers(spec)
    .filter((c) => containerContext(c)?.runAsUser === 0)
    .map(containerName)
  return pod || containers.length
    ? forbidden('runAsUser=0', `${setters(pod, containers)} must not set runAsUser=0`)
    : allowed
}

function seccompProfileRestricted(_meta: Json, spec: Json): CheckResult {
  const badValues: string[] = []
  const typeOf = (sc: Json | undefined): string | undefined =>
    sc && isSet(sc.seccompProfile) ? str(asRecord(sc.seccompProfile).type) : undefined
  const podType = typeOf(podContext(spec))
  const podBad = podType !== undefined && !validSeccompType(podType)
  if (podBad) badValues.push(podType)
  const podSet = podType !== undefined && !podBad
  const explicit: string[] = []
  const implicit: string[] = []
  for (const c of allContainers(spec)) {
    const type = typeOf(containerContext(c))
    if (type === undefined) {
      if (!podSet) implicit.push(containerName(c))
    } else if (!validSeccompType(type)) {
      explicit.push(containerName(c))
      badValues.push(type)
    }
  }
  if (podBad || explicit.length)
    return forbidden(
      'seccompProfile',
      `${setters(podBad, explicit)} must not set securityContext.seccompProfile.type to ${joinQuote(sortedSet(badValues))}`,
    )
  if (implicit.length)
    return forbidden(
      'seccompProfile',
      `pod or ${containerList(implicit)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`,
    )
  return allowed
}

export const restrictedChecks: readonly Check[] = [
  {
    id: 'allowPrivilegeEscalation',
    level: 'restricted',
    versions: [
      { minimumVersion: 8, checkPod: allowPrivilegeEscalation },
      { minimumVersion: 25, checkPod: exceptWindows(allowPrivilegeEscalation) },
    ],
  },
  {
    id: 'capabilities_restricted',
    level: 'restricted',
    versions: [
      {
        minimumVersion: 22,
        checkPod: capabilitiesRestricted,
        overrides: ['capabilities_baseline'],
      },
      {
        minimumVersion: 25,
        checkPod: exceptWindows(capabilitiesRestricted),
        overrides: ['capabilities_baseline'],
      },
    ],
  },
  {
    id: 'restrictedVolumes',
    level: 'restricted',
    versions: [{ minimumVersion: 0, checkPod: restrictedVolumes, overrides: ['hostPathVolumes'] }],
  },
  {
    id: 'runAsNonRoot',
    level: 'restricted',
    versions: [{ minimumVersion: 0, checkPod: runAsNonRoot }],
  },
  { id: 'runAsUser', level: 'restricted', versions: [{ minimumVersion: 23, checkPod: runAsUser }] },
  {
    id: 'seccompProfile_restricted',
    level: 'restricted',
    versions: [
      {
        minimumVersion: 19,
        checkPod: seccompProfileRestricted,
        overrides: ['seccompProfile_baseline'],
      },
      {
        minimumVersion: 25,
        checkPod: exceptWindows(seccompProfileRestricted),
        overrides: ['seccompProfile_baseline'],
      },
    ],
  },
]
