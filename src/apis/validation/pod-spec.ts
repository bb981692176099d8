import {
  type Container,
  type PodSpec,
  type PodTemplate,
  containerPort,
  podSpec,
  podTemplate,
  read,
} from './shapes'
import {
  type FieldCause,
  duplicate,
  forbidden,
  invalid,
  notSupported,
  required,
} from '../../apimachinery/field-errors'
import { validateVolumeMounts, validateVolumeNames } from './volumes'
import { validateTolerations } from './tolerations'
import {
  inclusiveRangeError,
  isDns1123Label,
  isDns1123Subdomain,
  isValidPortName,
  isValidPortNum,
  validateAnnotations,
  validateDns1123Label,
  validateLabels,
} from '../../apimachinery/field-formats'

/** PodSpec and PodTemplateSpec validation (pkg/apis/core/validation). */

export const supportedProtocols = ['SCTP', 'TCP', 'UDP']
export const restartPolicies = ['Always', 'OnFailure', 'Never']
export const dnsPolicies = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None']
export const pullPolicies = ['Always', 'IfNotPresent', 'Never']
export const terminationMessagePolicies = ['File', 'FallbackToLogsOnError']
export const maxInt32 = 2147483647

export function validateContainerPorts(ports: Container['ports'], path: string): FieldCause[] {
  const causes: FieldCause[] = []
  const names = new Set<string>()
  for (const [i, port] of (ports ?? []).entries()) {
    const at = `${path}[${i}]`
    if (port.name) {
      const errs = isValidPortName(port.name)
      if (errs.length) causes.push(...errs.map((m) => invalid(`${at}.name`, port.name, m)))
      else if (names.has(port.name)) causes.push(duplicate(`${at}.name`, port.name))
      else names.add(port.name)
    }
    const containerPort = port.containerPort ?? 0
    if (containerPort === 0) causes.push(required(`${at}.containerPort`))
    else
      causes.push(
        ...isValidPortNum(containerPort).map((m) =>
          invalid(`${at}.containerPort`, containerPort, m),
        ),
      )
    if (port.hostPort)
      causes.push(
        ...isValidPortNum(port.hostPort).map((m) => invalid(`${at}.hostPort`, port.hostPort, m)),
      )
    if (port.protocol && !supportedProtocols.includes(port.protocol)) {
      causes.push(notSupported(`${at}.protocol`, port.protocol, supportedProtocols))
    }
  }
  return causes
}

/** `volumes`: the pod's volume names, to check the container's mounts against (none given: not checked). */
export function validateContainerCommon(
  c: Container,
  path: string,
  volumes?: ReadonlySet<string>,
): FieldCause[] {
  const causes: FieldCause[] = []
  if (!c.name) causes.push(required(`${path}.name`))
  else causes.push(...validateDns1123Label(c.name, `${path}.name`))
  // Upstream leaves surrounding whitespace alone: some tools use " " as a placeholder image.
  if (!c.image) causes.push(required(`${path}.image`))
  if (
    c.terminationMessagePolicy &&
    !terminationMessagePolicies.includes(c.terminationMessagePolicy)
  ) {
    causes.push(
      notSupported(
        `${path}.terminationMessagePolicy`,
        c.terminationMessagePolicy,
        terminationMessagePolicies,
      ),
    )
  }
  causes.push(...validateContainerPorts(c.ports, `${path}.ports`))
  if (volumes) causes.push(...validateVolumeMounts(c.volumeMounts, volumes, `${path}.volumeMounts`))
  if (c.imagePullPolicy && !pullPolicies.includes(c.imagePullPolicy)) {
    causes.push(notSupported(`${path}.imagePullPolicy`, c.imagePullPolicy, pullPolicies))
  }
  return causes
}

// Two containers may not claim the same host port for the same protocol and host IP.
export function checkHostPortConflicts(
  containers: readonly Container[],
  path: string,
  seen = new Set<string>(),
  offset = 0,
): FieldCause[] {
  const causes: FieldCause[] = []
  for (const [ci, c] of containers.entries()) {
    for (const [pi, p] of (c.ports ?? []).entries()) {
      if (!p.hostPort) continue
      const key = `${p.protocol || 'TCP'}/${p.hostIP ?? ''}/${p.hostPort}`
      if (seen.has(key))
        causes.push(duplicate(`${path}[${ci + offset}].ports[${pi}].hostPort`, key))
      else seen.add(key)
    }
  }
  return causes
}

export function validateContainers(
  containers: Container[] | undefined,
  path: string,
  volumes?: ReadonlySet<string>,
): FieldCause[] {
  if (!containers?.length) return [required(path)]
  const causes: FieldCause[] = []
  const names = new Set<string>()
  containers.forEach((c, i) => {
    const at = `${path}[${i}]`
    causes.push(...validateContainerCommon(c, at, volumes))
    const name = c.name ?? ''
    if (names.has(name)) causes.push(duplicate(`${at}.name`, name))
    else names.add(name)
    if (c.restartPolicy !== undefined)
      causes.push(forbidden(`${at}.restartPolicy`, 'may not be set for non-init containers'))
  })
  causes.push(...checkHostPortConflicts(containers, path))
  return causes
}

export function validateInitContainers(
  inits: Container[] | undefined,
  regular: Container[] | undefined,
  path: string,
  volumes?: ReadonlySet<string>,
): FieldCause[] {
  const causes: FieldCause[] = []
  const names = new Set((regular ?? []).map((c) => c.name ?? ''))
  for (const [i, c] of (inits ?? []).entries()) {
    const at = `${path}[${i}]`
    causes.push(...validateContainerCommon(c, at, volumes))
    // Only sidecars set a restart policy on an init container, and it can only be Always.
    if (c.restartPolicy !== undefined && c.restartPolicy !== 'Always') {
      causes.push(notSupported(`${at}.restartPolicy`, c.restartPolicy, ['Always']))
    }
    const name = c.name ?? ''
    if (names.has(name)) causes.push(duplicate(`${at}.name`, name))
    else if (name) names.add(name)
    // Init containers run one at a time, so their host ports only conflict within one container.
    causes.push(...checkHostPortConflicts([c], path, new Set(), i))
  }
  return causes
}

export function validateNameFn(
  value: string | undefined,
  field: string,
  check: (v: string) => string[],
): FieldCause[] {
  return value ? check(value).map((m) => invalid(field, value, m)) : []
}

/** A PodSpec at `path` (`spec` for a Pod, `spec.template.spec` in a workload). */
export function validatePodSpec(spec: unknown, path: string): FieldCause[] {
  const s: PodSpec = read(podSpec, spec)
  // Upstream validates the volumes first, then each container with its mounts of them.
  const volumes = validateVolumeNames(s.volumes, `${path}.volumes`)
  const causes: FieldCause[] = [...volumes.causes]
  causes.push(...validateContainers(s.containers, `${path}.containers`, volumes.names))
  causes.push(
    ...validateInitContainers(
      s.initContainers,
      s.containers,
      `${path}.initContainers`,
      volumes.names,
    ),
  )
  if (s.restartPolicy && !restartPolicies.includes(s.restartPolicy)) {
    causes.push(notSupported(`${path}.restartPolicy`, s.restartPolicy, restartPolicies))
  }
  if (s.dnsPolicy && !dnsPolicies.includes(s.dnsPolicy))
    causes.push(notSupported(`${path}.dnsPolicy`, s.dnsPolicy, dnsPolicies))
  causes.push(...validateLabels(s.nodeSelector, `${path}.nodeSelector`))
  causes.push(
    ...validateNameFn(s.serviceAccountName, `${path}.serviceAccountName`, isDns1123Subdomain),
  )
  causes.push(...validateNameFn(s.nodeName, `${path}.nodeName`, isDns1123Subdomain))
  if (
    s.activeDeadlineSeconds !== undefined &&
    (s.activeDeadlineSeconds < 1 || s.activeDeadlineSeconds > maxInt32)
  ) {
    causes.push(
      invalid(
        `${path}.activeDeadlineSeconds`,
        s.activeDeadlineSeconds,
        inclusiveRangeError(1, maxInt32),
      ),
    )
  }
  causes.push(...validateNameFn(s.hostname, `${path}.hostname`, isDns1123Label))
  causes.push(...validateNameFn(s.subdomain, `${path}.subdomain`, isDns1123Label))
  causes.push(
    ...validateNameFn(s.priorityClassName, `${path}.priorityClassName`, isDns1123Subdomain),
  )
  causes.push(...validateTolerations(s.tolerations, `${path}.tolerations`))
  return causes
}

/** A PodTemplateSpec at `path`; upstream reports its labels at `<path>.labels`, not under metadata. */
export function validatePodTemplateSpec(template: unknown, path: string): FieldCause[] {
  const t: PodTemplate = read(podTemplate, template)
  return [
    ...validateLabels(t.metadata?.labels, `${path}.labels`),
    ...validateAnnotations(t.metadata?.annotations, `${path}.annotations`),
    ...validatePodSpec(t.spec, `${path}.spec`),
  ]
}
