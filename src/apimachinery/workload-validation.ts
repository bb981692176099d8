import { z } from 'zod'
import type { KubeObject } from './types'
import { SelectorError, isEverything, matchesLabels, selectorFromLabelSelector, selectorFromSet, type LabelSelector } from './labels'
import {
  duplicate,
  forbidden,
  goIntOrString,
  goPointer,
  goQuote,
  goStringMap,
  goStringSlice,
  byteLength,
  inclusiveRangeError,
  invalid,
  isConfigMapKey,
  isDns1123Label,
  isDns1123Subdomain,
  isNegativeErrorMsg,
  isValidLabelValue,
  isValidPercent,
  isValidPortName,
  isValidPortNum,
  notSupported,
  required,
  tooLong,
  validateAnnotations,
  validateDns1123Label,
  validateDns1123Subdomain,
  validateLabels,
  validateNonnegative,
  validateQualifiedName,
  type FieldCause,
} from './validation'
import { validateEphemeralContainers } from './ephemeral-validation'

/**
 * Spec validation for the kinds the server acts on, as kube-apiserver v1.32 validates them on
 * create (pkg/apis/{core,apps,batch}/validation), with upstream's field paths and messages.
 * Metadata is validateObjectMeta's job; call it first, as upstream lists metadata causes first.
 * Fields that upstream defaults before validating (restartPolicy, protocols, strategies…) are
 * validated as their default when absent, so the result does not depend on defaulting first.
 */

// ---------------------------------------------------------------------------------------------
// Shapes of the fields validated here. A field of the wrong JSON type reads as absent: decoding,
// not validation, is where upstream rejects those.

const optional = <T extends z.ZodType>(t: T) => t.optional().catch(undefined)
const str = optional(z.string())
const num = optional(z.number())
const bool = optional(z.boolean())
const stringMap = z.record(z.string(), z.string()).nullish().catch(undefined)
const intOrString = optional(z.union([z.number(), z.string()]))

const objectMeta = z.looseObject({ name: str, uid: str, labels: stringMap, annotations: stringMap })

const containerPort = z.looseObject({ name: str, containerPort: num, hostPort: num, hostIP: str, protocol: str })
const container = z.looseObject({
  name: str,
  image: str,
  imagePullPolicy: str,
  terminationMessagePolicy: str,
  restartPolicy: str,
  ports: optional(z.array(containerPort)),
})
const podSpec = z.looseObject({
  containers: optional(z.array(container)),
  initContainers: optional(z.array(container)),
  restartPolicy: str,
  dnsPolicy: str,
  nodeSelector: stringMap,
  serviceAccountName: str,
  nodeName: str,
  activeDeadlineSeconds: num,
  hostname: str,
  subdomain: str,
  priorityClassName: str,
})
const podTemplate = z.looseObject({ metadata: optional(objectMeta), spec: optional(podSpec) })

const selectorRequirement = z.looseObject({
  key: z.string().catch(''),
  operator: z.string().catch(''),
  values: z.array(z.string()).nullish().catch(undefined),
})
const labelSelector = z
  .looseObject({ matchLabels: stringMap, matchExpressions: z.array(selectorRequirement).nullish().catch(undefined) })
  .nullish()
  .catch(undefined)

const deploymentSpec = z.looseObject({
  replicas: num,
  selector: labelSelector,
  template: optional(podTemplate),
  strategy: optional(
    z.looseObject({
      type: str,
      rollingUpdate: z.looseObject({ maxUnavailable: intOrString, maxSurge: intOrString }).nullish().catch(undefined),
    }),
  ),
  minReadySeconds: num,
  revisionHistoryLimit: num,
  progressDeadlineSeconds: num,
})
const replicaSetSpec = z.looseObject({ replicas: num, minReadySeconds: num, selector: labelSelector, template: optional(podTemplate) })
const daemonSetSpec = z.looseObject({
  selector: labelSelector,
  template: optional(podTemplate),
  minReadySeconds: num,
  revisionHistoryLimit: num,
  updateStrategy: optional(
    z.looseObject({
      type: str,
      rollingUpdate: z.looseObject({ maxUnavailable: intOrString, maxSurge: intOrString }).nullish().catch(undefined),
    }),
  ),
})
const statefulSetSpec = z.looseObject({
  replicas: num,
  minReadySeconds: num,
  podManagementPolicy: str,
  selector: labelSelector,
  template: optional(podTemplate),
  updateStrategy: optional(
    z.looseObject({
      type: str,
      rollingUpdate: z.looseObject({ partition: num, maxUnavailable: intOrString }).nullish().catch(undefined),
    }),
  ),
})
const replicationControllerSpec = z.looseObject({
  replicas: num,
  minReadySeconds: num,
  selector: stringMap,
  template: podTemplate.nullish().catch(undefined),
})
const jobSpec = z.looseObject({
  parallelism: num,
  completions: num,
  activeDeadlineSeconds: num,
  backoffLimit: num,
  ttlSecondsAfterFinished: num,
  completionMode: str,
  manualSelector: bool,
  selector: labelSelector,
  template: optional(podTemplate),
})
const cronJobSpec = z.looseObject({
  schedule: str,
  startingDeadlineSeconds: num,
  concurrencyPolicy: str,
  successfulJobsHistoryLimit: num,
  failedJobsHistoryLimit: num,
  jobTemplate: optional(z.looseObject({ spec: optional(jobSpec) })),
})
const servicePort = z.looseObject({ name: str, protocol: str, appProtocol: str, port: num, targetPort: intOrString, nodePort: num })
const serviceSpec = z.looseObject({
  type: str,
  clusterIP: str,
  clusterIPs: optional(z.array(z.string())),
  externalName: str,
  sessionAffinity: str,
  selector: stringMap,
  ports: optional(z.array(servicePort)),
})

type PodSpec = z.infer<typeof podSpec>
export type Container = z.infer<typeof container>
type PodTemplate = z.infer<typeof podTemplate>
type MetaSelector = z.infer<typeof labelSelector>
type SelectorRequirement = z.infer<typeof selectorRequirement>
type JobSpec = z.infer<typeof jobSpec>
type IntOrString = number | string

function read<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const parsed = schema.safeParse(value ?? {})
  return parsed.success ? parsed.data : schema.parse({})
}

// ---------------------------------------------------------------------------------------------
// Pod specs

const supportedProtocols = ['SCTP', 'TCP', 'UDP']
const restartPolicies = ['Always', 'OnFailure', 'Never']
const dnsPolicies = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None']
const pullPolicies = ['Always', 'IfNotPresent', 'Never']
const terminationMessagePolicies = ['File', 'FallbackToLogsOnError']
const maxInt32 = 2147483647

function validateContainerPorts(ports: Container['ports'], path: string): FieldCause[] {
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
    else causes.push(...isValidPortNum(containerPort).map((m) => invalid(`${at}.containerPort`, containerPort, m)))
    if (port.hostPort) causes.push(...isValidPortNum(port.hostPort).map((m) => invalid(`${at}.hostPort`, port.hostPort, m)))
    if (port.protocol && !supportedProtocols.includes(port.protocol)) {
      causes.push(notSupported(`${at}.protocol`, port.protocol, supportedProtocols))
    }
  }
  return causes
}

/** What every kind of container must satisfy (name, image, ports, policies). */
export function validateContainerCommon(c: Container, path: string): FieldCause[] {
  const causes: FieldCause[] = []
  if (!c.name) causes.push(required(`${path}.name`))
  else causes.push(...validateDns1123Label(c.name, `${path}.name`))
  // Upstream leaves surrounding whitespace alone: some tools use " " as a placeholder image.
  if (!c.image) causes.push(required(`${path}.image`))
  if (c.terminationMessagePolicy && !terminationMessagePolicies.includes(c.terminationMessagePolicy)) {
    causes.push(notSupported(`${path}.terminationMessagePolicy`, c.terminationMessagePolicy, terminationMessagePolicies))
  }
  causes.push(...validateContainerPorts(c.ports, `${path}.ports`))
  if (c.imagePullPolicy && !pullPolicies.includes(c.imagePullPolicy)) {
    causes.push(notSupported(`${path}.imagePullPolicy`, c.imagePullPolicy, pullPolicies))
  }
  return causes
}

// Two containers may not claim the same host port for the same protocol and host IP.
function checkHostPortConflicts(containers: readonly Container[], path: string, seen = new Set<string>(), offset = 0): FieldCause[] {
  const causes: FieldCause[] = []
  for (const [ci, c] of containers.entries()) {
    for (const [pi, p] of (c.ports ?? []).entries()) {
      if (!p.hostPort) continue
      const key = `${p.protocol || 'TCP'}/${p.hostIP ?? ''}/${p.hostPort}`
      if (seen.has(key)) causes.push(duplicate(`${path}[${ci + offset}].ports[${pi}].hostPort`, key))
      else seen.add(key)
    }
  }
  return causes
}

function validateContainers(containers: Container[] | undefined, path: string): FieldCause[] {
  if (!containers?.length) return [required(path)]
  const causes: FieldCause[] = []
  const names = new Set<string>()
  containers.forEach((c, i) => {
    const at = `${path}[${i}]`
    causes.push(...validateContainerCommon(c, at))
    const name = c.name ?? ''
    if (names.has(name)) causes.push(duplicate(`${at}.name`, name))
    else names.add(name)
    if (c.restartPolicy !== undefined) causes.push(forbidden(`${at}.restartPolicy`, 'may not be set for non-init containers'))
  })
  causes.push(...checkHostPortConflicts(containers, path))
  return causes
}

function validateInitContainers(inits: Container[] | undefined, regular: Container[] | undefined, path: string): FieldCause[] {
  const causes: FieldCause[] = []
  const names = new Set((regular ?? []).map((c) => c.name ?? ''))
  for (const [i, c] of (inits ?? []).entries()) {
    const at = `${path}[${i}]`
    causes.push(...validateContainerCommon(c, at))
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

function validateNameFn(value: string | undefined, field: string, check: (v: string) => string[]): FieldCause[] {
  return value ? check(value).map((m) => invalid(field, value, m)) : []
}

/** A PodSpec at `path` (`spec` for a Pod, `spec.template.spec` in a workload). */
export function validatePodSpec(spec: unknown, path: string): FieldCause[] {
  const s: PodSpec = read(podSpec, spec)
  const causes: FieldCause[] = []
  causes.push(...validateContainers(s.containers, `${path}.containers`))
  causes.push(...validateInitContainers(s.initContainers, s.containers, `${path}.initContainers`))
  if (s.restartPolicy && !restartPolicies.includes(s.restartPolicy)) {
    causes.push(notSupported(`${path}.restartPolicy`, s.restartPolicy, restartPolicies))
  }
  if (s.dnsPolicy && !dnsPolicies.includes(s.dnsPolicy)) causes.push(notSupported(`${path}.dnsPolicy`, s.dnsPolicy, dnsPolicies))
  causes.push(...validateLabels(s.nodeSelector, `${path}.nodeSelector`))
  causes.push(...validateNameFn(s.serviceAccountName, `${path}.serviceAccountName`, isDns1123Subdomain))
  causes.push(...validateNameFn(s.nodeName, `${path}.nodeName`, isDns1123Subdomain))
  if (s.activeDeadlineSeconds !== undefined && (s.activeDeadlineSeconds < 1 || s.activeDeadlineSeconds > maxInt32)) {
    causes.push(invalid(`${path}.activeDeadlineSeconds`, s.activeDeadlineSeconds, inclusiveRangeError(1, maxInt32)))
  }
  causes.push(...validateNameFn(s.hostname, `${path}.hostname`, isDns1123Label))
  causes.push(...validateNameFn(s.subdomain, `${path}.subdomain`, isDns1123Label))
  causes.push(...validateNameFn(s.priorityClassName, `${path}.priorityClassName`, isDns1123Subdomain))
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

// ---------------------------------------------------------------------------------------------
// Label selectors in specs

function goSelectorRequirement(r: SelectorRequirement): string {
  return `v1.LabelSelectorRequirement{Key:${goQuote(r.key)}, Operator:${goQuote(r.operator)}, Values:${goStringSlice(r.values ?? null)}}`
}

/** %#v of a metav1.LabelSelector, as upstream prints a bad spec.selector. */
export function goLabelSelector(sel: MetaSelector): string {
  const s = sel ?? {}
  const exprs = s.matchExpressions
  const exprText = exprs ? `[]v1.LabelSelectorRequirement{${exprs.map(goSelectorRequirement).join(', ')}}` : '[]v1.LabelSelectorRequirement(nil)'
  return `v1.LabelSelector{MatchLabels:${goStringMap(s.matchLabels ?? null)}, MatchExpressions:${exprText}}`
}

/** metav1 ValidateLabelSelector: label keys and values, operators and their value counts. */
export function validateMetaLabelSelector(selector: unknown, path: string): FieldCause[] {
  const sel = read(labelSelector, selector)
  if (!sel) return []
  const causes = validateLabels(sel.matchLabels, `${path}.matchLabels`)
  for (const [i, expr] of (sel.matchExpressions ?? []).entries()) {
    const at = `${path}.matchExpressions[${i}]`
    const values = expr.values ?? []
    switch (expr.operator) {
      case 'In':
      case 'NotIn':
        if (!values.length) causes.push(required(`${at}.values`, "must be specified when `operator` is 'In' or 'NotIn'"))
        break
      case 'Exists':
      case 'DoesNotExist':
        if (values.length) causes.push(forbidden(`${at}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
        break
      default:
        causes.push(invalid(`${at}.operator`, expr.operator, 'not a valid selector operator'))
    }
    causes.push(...validateQualifiedName(expr.key, `${at}.key`))
    values.forEach((v, j) => causes.push(...isValidLabelValue(v).map((m) => invalid(`${at}.values[${j}]`, v, m))))
  }
  return causes
}

// A selector that must be present and not empty, as Deployments, ReplicaSets and StatefulSets need.
function requiredSelector(sel: MetaSelector, path: string, kindWord: string): FieldCause[] {
  if (!sel) return [required(path)]
  const causes = validateMetaLabelSelector(sel, path)
  if (Object.keys(sel.matchLabels ?? {}).length + (sel.matchExpressions ?? []).length === 0) {
    causes.push(invalid(path, sel, `empty selector is invalid for ${kindWord}`, goLabelSelector(sel)))
  }
  return causes
}

function toSelector(sel: MetaSelector): LabelSelector | undefined {
  try {
    return selectorFromLabelSelector(sel)
  } catch (e) {
    if (e instanceof SelectorError) return undefined
    throw e
  }
}

function selectorMismatch(template: PodTemplate | undefined, path: string): FieldCause {
  const labels = template?.metadata?.labels ?? null
  return invalid(`${path}.metadata.labels`, labels, '`selector` does not match template `labels`', goStringMap(labels))
}

// ---------------------------------------------------------------------------------------------
// Workloads

// The template of a controller whose pods always restart (ReplicaSet, Deployment, DaemonSet, RC).
function validateTemplateForController(t: PodTemplate | undefined, sel: LabelSelector, path: string, kindWord: string): FieldCause[] {
  const causes: FieldCause[] = []
  if (!isEverything(sel) && !matchesLabels(sel, t?.metadata?.labels)) causes.push(selectorMismatch(t, path))
  causes.push(...validatePodTemplateSpec(t, path))
  causes.push(...alwaysRestart(t, path, kindWord))
  return causes
}

function alwaysRestart(t: PodTemplate | undefined, path: string, kindWord: string): FieldCause[] {
  const causes: FieldCause[] = []
  const policy = t?.spec?.restartPolicy || 'Always'
  if (policy !== 'Always') causes.push(notSupported(`${path}.spec.restartPolicy`, policy, ['Always']))
  if (t?.spec?.activeDeadlineSeconds !== undefined) {
    causes.push(forbidden(`${path}.spec.activeDeadlineSeconds`, `activeDeadlineSeconds in ${kindWord} is not Supported`))
  }
  return causes
}

// intstr helpers: a valid percentage reads as its number, anything else as IntValue().
function percentValue(v: IntOrString): number | undefined {
  return typeof v === 'string' && !isValidPercent(v).length ? Number(v.slice(0, -1)) : undefined
}

function intOrPercentValue(v: IntOrString): number {
  const p = percentValue(v)
  if (p !== undefined) return p
  if (typeof v === 'number') return v
  return /^[+-]?\d+$/.test(v) ? Number(v) : 0
}

export function validatePositiveIntOrPercent(v: IntOrString, path: string): FieldCause[] {
  if (typeof v === 'string') return isValidPercent(v).map((m) => invalid(path, v, m, goIntOrString(v)))
  return v < 0 ? [invalid(path, v, isNegativeErrorMsg)] : []
}

export function notMoreThan100Percent(v: IntOrString, path: string): FieldCause[] {
  const p = percentValue(v)
  return p !== undefined && p > 100 ? [invalid(path, v, 'must not be greater than 100%', goIntOrString(v))] : []
}

function validateDeployment(obj: KubeObject): FieldCause[] {
  const spec = read(deploymentSpec, obj.spec)
  const causes = validateNonnegative(spec.replicas ?? 1, 'spec.replicas')
  causes.push(...requiredSelector(spec.selector, 'spec.selector', 'deployment'))
  const sel = toSelector(spec.selector)
  if (!sel) causes.push(invalid('spec.selector', spec.selector, 'invalid label selector', goLabelSelector(spec.selector)))
  else causes.push(...validateTemplateForController(spec.template, sel, 'spec.template', 'ReplicaSet'))

  const strategy = spec.strategy ?? {}
  const type = strategy.type || 'RollingUpdate'
  if (type === 'Recreate') {
    if (strategy.rollingUpdate) causes.push(forbidden('spec.strategy.rollingUpdate', "may not be specified when strategy `type` is 'Recreate'"))
  } else if (type === 'RollingUpdate') {
    const path = 'spec.strategy.rollingUpdate'
    const maxUnavailable = strategy.rollingUpdate?.maxUnavailable ?? '25%'
    const maxSurge = strategy.rollingUpdate?.maxSurge ?? '25%'
    causes.push(...validatePositiveIntOrPercent(maxUnavailable, `${path}.maxUnavailable`))
    causes.push(...validatePositiveIntOrPercent(maxSurge, `${path}.maxSurge`))
    if (intOrPercentValue(maxUnavailable) === 0 && intOrPercentValue(maxSurge) === 0) {
      causes.push(invalid(`${path}.maxUnavailable`, maxUnavailable, 'may not be 0 when `maxSurge` is 0', goIntOrString(maxUnavailable)))
    }
    causes.push(...notMoreThan100Percent(maxUnavailable, `${path}.maxUnavailable`))
  } else {
    const display = `apps.DeploymentStrategy{Type:${goQuote(type)}, RollingUpdate:${goPointer('apps.RollingUpdateDeployment', !!strategy.rollingUpdate)}}`
    causes.push(notSupported('spec.strategy', strategy, ['Recreate', 'RollingUpdate'], display))
  }

  const minReadySeconds = spec.minReadySeconds ?? 0
  causes.push(...validateNonnegative(minReadySeconds, 'spec.minReadySeconds'))
  if (spec.revisionHistoryLimit !== undefined) causes.push(...validateNonnegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'))
  const progressDeadline = spec.progressDeadlineSeconds ?? 600
  causes.push(...validateNonnegative(progressDeadline, 'spec.progressDeadlineSeconds'))
  if (progressDeadline <= minReadySeconds) causes.push(invalid('spec.progressDeadlineSeconds', progressDeadline, 'must be greater than minReadySeconds'))
  return causes
}

function validateReplicaSet(obj: KubeObject): FieldCause[] {
  const spec = read(replicaSetSpec, obj.spec)
  const causes = validateNonnegative(spec.replicas ?? 1, 'spec.replicas')
  causes.push(...validateNonnegative(spec.minReadySeconds ?? 0, 'spec.minReadySeconds'))
  // Upstream shares the Deployment wording here.
  causes.push(...requiredSelector(spec.selector, 'spec.selector', 'deployment'))
  const sel = toSelector(spec.selector)
  if (!sel) causes.push(invalid('spec.selector', spec.selector, 'invalid label selector', goLabelSelector(spec.selector)))
  else causes.push(...validateTemplateForController(spec.template, sel, 'spec.template', 'ReplicaSet'))
  return causes
}

function validateDaemonSet(obj: KubeObject): FieldCause[] {
  const spec = read(daemonSetSpec, obj.spec)
  // A DaemonSet's selector is not required as such: a missing one simply matches no template.
  const causes = validateMetaLabelSelector(spec.selector, 'spec.selector')
  const sel = toSelector(spec.selector)
  if (sel && !matchesLabels(sel, spec.template?.metadata?.labels)) causes.push(selectorMismatch(spec.template, 'spec.template'))
  if (spec.selector && Object.keys(spec.selector.matchLabels ?? {}).length + (spec.selector.matchExpressions ?? []).length === 0) {
    causes.push(invalid('spec.selector', spec.selector, 'empty selector is invalid for daemonset', goLabelSelector(spec.selector)))
  }
  causes.push(...validatePodTemplateSpec(spec.template, 'spec.template'))
  causes.push(...alwaysRestart(spec.template, 'spec.template', 'DaemonSet'))
  causes.push(...validateNonnegative(spec.minReadySeconds ?? 0, 'spec.minReadySeconds'))

  const strategy = spec.updateStrategy ?? {}
  const type = strategy.type || 'RollingUpdate'
  if (type === 'RollingUpdate') {
    const path = 'spec.updateStrategy.rollingUpdate'
    const maxUnavailable = strategy.rollingUpdate?.maxUnavailable ?? 1
    const maxSurge = strategy.rollingUpdate?.maxSurge ?? 0
    causes.push(...validatePositiveIntOrPercent(maxUnavailable, `${path}.maxUnavailable`))
    causes.push(...validatePositiveIntOrPercent(maxSurge, `${path}.maxSurge`))
    causes.push(...notMoreThan100Percent(maxUnavailable, `${path}.maxUnavailable`))
    causes.push(...notMoreThan100Percent(maxSurge, `${path}.maxSurge`))
    const hasUnavailable = intOrPercentValue(maxUnavailable) !== 0
    const hasSurge = intOrPercentValue(maxSurge) !== 0
    if (hasUnavailable && hasSurge) {
      causes.push(invalid(`${path}.maxSurge`, maxSurge, 'may not be set when maxUnavailable is non-zero', goIntOrString(maxSurge)))
    } else if (!hasUnavailable && !hasSurge) {
      causes.push(required(`${path}.maxUnavailable`, 'cannot be 0 when maxSurge is 0'))
    }
  } else if (type !== 'OnDelete') {
    const display = `apps.DaemonSetUpdateStrategy{Type:${goQuote(type)}, RollingUpdate:${goPointer('apps.RollingUpdateDaemonSet', !!strategy.rollingUpdate)}}`
    causes.push(notSupported('spec.updateStrategy', strategy, ['RollingUpdate', 'OnDelete'], display))
  }
  if (spec.revisionHistoryLimit !== undefined) causes.push(...validateNonnegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'))
  return causes
}

/**
 * Upstream does not validate a StatefulSet's pod spec, only its template's labels and
 * annotations: a bad container surfaces when the controller creates the pods.
 */
function validateStatefulSet(obj: KubeObject): FieldCause[] {
  const spec = read(statefulSetSpec, obj.spec)
  const causes: FieldCause[] = []
  const policy = spec.podManagementPolicy || 'OrderedReady'
  if (policy !== 'OrderedReady' && policy !== 'Parallel') {
    causes.push(invalid('spec.podManagementPolicy', policy, "must be 'OrderedReady' or 'Parallel'"))
  }
  const strategy = spec.updateStrategy ?? {}
  const type = strategy.type || 'RollingUpdate'
  const ru = strategy.rollingUpdate
  const ruDisplay = ru
    ? `apps.RollingUpdateStatefulSetStrategy{Partition:${ru.partition ?? 0}, MaxUnavailable:${goPointer('intstr.IntOrString', ru.maxUnavailable !== undefined)}}`
    : ''
  if (type === 'OnDelete') {
    if (ru) causes.push(invalid('spec.updateStrategy.rollingUpdate', ru, "only allowed for updateStrategy 'RollingUpdate'", ruDisplay))
  } else if (type === 'RollingUpdate') {
    if (ru) {
      const path = 'spec.updateStrategy.rollingUpdate'
      causes.push(...validateNonnegative(ru.partition ?? 0, `${path}.partition`))
      if (ru.maxUnavailable !== undefined) {
        causes.push(...validatePositiveIntOrPercent(ru.maxUnavailable, `${path}.maxUnavailable`))
        if (intOrPercentValue(ru.maxUnavailable) === 0) {
          causes.push(invalid(`${path}.maxUnavailable`, ru.maxUnavailable, 'cannot be 0', goIntOrString(ru.maxUnavailable)))
        }
        causes.push(...notMoreThan100Percent(ru.maxUnavailable, `${path}.maxUnavailable`))
      }
    }
  } else {
    const display = `apps.StatefulSetUpdateStrategy{Type:${goQuote(type)}, RollingUpdate:${goPointer('apps.RollingUpdateStatefulSetStrategy', !!ru)}}`
    causes.push(invalid('spec.updateStrategy', strategy, "must be 'RollingUpdate' or 'OnDelete'", display))
  }
  causes.push(...validateNonnegative(spec.replicas ?? 1, 'spec.replicas'))
  causes.push(...validateNonnegative(spec.minReadySeconds ?? 0, 'spec.minReadySeconds'))
  causes.push(...requiredSelector(spec.selector, 'spec.selector', 'statefulset'))
  const sel = toSelector(spec.selector)
  if (!sel) {
    causes.push(invalid('spec.selector', spec.selector, '', goLabelSelector(spec.selector)))
  } else {
    if (!isEverything(sel) && !matchesLabels(sel, spec.template?.metadata?.labels)) causes.push(selectorMismatch(spec.template, 'spec.template'))
    causes.push(...validateLabels(spec.template?.metadata?.labels, 'spec.template.labels'))
    causes.push(...validateAnnotations(spec.template?.metadata?.annotations, 'spec.template.annotations'))
  }
  causes.push(...alwaysRestart(spec.template, 'spec.template', 'StatefulSet'))
  return causes
}

function validateReplicationController(obj: KubeObject): FieldCause[] {
  const spec = read(replicationControllerSpec, obj.spec)
  const causes = validateNonnegative(spec.minReadySeconds ?? 0, 'spec.minReadySeconds')
  // An empty selector defaults to the template's labels.
  const selectorMap = Object.keys(spec.selector ?? {}).length ? spec.selector! : (spec.template?.metadata?.labels ?? {})
  if (!Object.keys(selectorMap).length) causes.push(required('spec.selector'))
  causes.push(...validateNonnegative(spec.replicas ?? 1, 'spec.replicas'))
  if (!spec.template) {
    causes.push(required('spec.template'))
  } else {
    causes.push(...validateTemplateForController(spec.template, selectorFromSet(selectorMap), 'spec.template', 'ReplicationController'))
  }
  return causes
}

const jobRestartPolicies = ['OnFailure', 'Never']

// validateJobSpec upstream: what Jobs and CronJob job templates share.
function validateJobSpecCommon(spec: JobSpec, path: string): FieldCause[] {
  const causes: FieldCause[] = []
  for (const f of ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished'] as const) {
    const v = spec[f]
    if (v !== undefined) causes.push(...validateNonnegative(v, `${path}.${f}`))
  }
  if (spec.completionMode !== undefined) {
    if (spec.completionMode !== 'NonIndexed' && spec.completionMode !== 'Indexed') {
      causes.push(notSupported(`${path}.completionMode`, spec.completionMode, ['NonIndexed', 'Indexed']))
    }
    if (spec.completionMode === 'Indexed' && spec.completions === undefined) {
      causes.push(required(`${path}.completions`, 'when completion mode is Indexed'))
    }
  }
  causes.push(...validatePodTemplateSpec(spec.template, `${path}.template`))
  // A pod template defaults to Always, which a Job cannot use, so a missing policy is reported as required.
  const policy = spec.template?.spec?.restartPolicy ?? ''
  if (policy === 'Always' || policy === '') {
    causes.push(required(`${path}.template.spec.restartPolicy`, `valid values: ${jobRestartPolicies.map(goQuote).join(', ')}`))
  } else if (!jobRestartPolicies.includes(policy)) {
    causes.push(notSupported(`${path}.template.spec.restartPolicy`, policy, jobRestartPolicies))
  }
  return causes
}

// Selector-generated Jobs must carry the generated labels and a selector on the controller uid.
function validateGeneratedSelector(obj: KubeObject, spec: JobSpec): FieldCause[] {
  if (spec.manualSelector === true || !spec.selector) return []
  const meta = read(objectMeta, obj.metadata)
  const uid = meta.uid ?? ''
  const name = meta.name ?? ''
  const causes: FieldCause[] = []
  if (!uid) causes.push(required('metadata.uid'))
  const labels = spec.template?.metadata?.labels ?? undefined
  const expected: [string, string][] = [
    ['controller-uid', uid],
    ['job-name', name],
    ['batch.kubernetes.io/controller-uid', uid],
    ['batch.kubernetes.io/job-name', name],
  ]
  for (const [key, want] of expected) {
    const path = `spec.template.metadata.labels[${key}]`
    if (!labels || !Object.prototype.hasOwnProperty.call(labels, key)) causes.push(required(path, `must be '${want}'`))
    else if (labels[key] !== want) causes.push(invalid(path, labels, `must be '${want}'`, goStringMap(labels)))
  }
  const sel = toSelector(spec.selector)
  if (sel && !matchesLabels(sel, Object.fromEntries(expected))) {
    causes.push(invalid('spec.selector', spec.selector, '`selector` not auto-generated', goLabelSelector(spec.selector)))
  }
  return causes
}

/**
 * Jobs are validated after the server generated their selector (unless spec.manualSelector), as
 * upstream does: without one, spec.selector is reported as required.
 */
function validateJob(obj: KubeObject): FieldCause[] {
  const spec = read(jobSpec, obj.spec)
  const causes = validateGeneratedSelector(obj, spec)
  causes.push(...validateJobSpecCommon(spec, 'spec'))
  if (!spec.selector) causes.push(required('spec.selector'))
  else causes.push(...validateMetaLabelSelector(spec.selector, 'spec.selector'))
  const sel = toSelector(spec.selector)
  if (sel && !matchesLabels(sel, spec.template?.metadata?.labels)) causes.push(selectorMismatch(spec.template, 'spec.template'))
  return causes
}

function validateCronJob(obj: KubeObject): FieldCause[] {
  const spec = read(cronJobSpec, obj.spec)
  const causes: FieldCause[] = []
  if (!spec.schedule) causes.push(required('spec.schedule'))
  if (spec.startingDeadlineSeconds !== undefined) causes.push(...validateNonnegative(spec.startingDeadlineSeconds, 'spec.startingDeadlineSeconds'))
  const concurrency = spec.concurrencyPolicy || 'Allow'
  if (!['Allow', 'Forbid', 'Replace'].includes(concurrency)) {
    causes.push(notSupported('spec.concurrencyPolicy', concurrency, ['Allow', 'Forbid', 'Replace']))
  }
  const job = read(jobSpec, spec.jobTemplate?.spec)
  causes.push(...validateJobSpecCommon(job, 'spec.jobTemplate.spec'))
  if (job.selector) {
    causes.push(invalid('spec.jobTemplate.spec.selector', job.selector, '`selector` will be auto-generated', goLabelSelector(job.selector)))
  }
  if (job.manualSelector === true) causes.push(notSupported('spec.jobTemplate.spec.manualSelector', true, ['nil', 'false']))
  for (const f of ['successfulJobsHistoryLimit', 'failedJobsHistoryLimit'] as const) {
    const v = spec[f]
    if (v !== undefined) causes.push(...validateNonnegative(v, `spec.${f}`))
  }
  // Jobs are named `<cronjob>-<11 characters>` and must stay DNS labels.
  const name = read(objectMeta, obj.metadata).name ?? ''
  if (name.length > 52) causes.push(invalid('metadata.name', name, 'must be no more than 52 characters'))
  return causes
}

function validatePod(obj: KubeObject): FieldCause[] {
  return [...validatePodSpec(obj.spec, 'spec'), ...validateEphemeralContainers(obj.spec, 'spec.ephemeralContainers')]
}

// ---------------------------------------------------------------------------------------------
// Services, ConfigMaps, Secrets

const serviceTypes = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort']

function goServicePortKey(protocol: string, port: number): string {
  return `core.ServicePort{Name:"", Protocol:${goQuote(protocol)}, AppProtocol:(*string)(nil), Port:${port}, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}`
}

function validateService(obj: KubeObject): FieldCause[] {
  const spec = read(serviceSpec, obj.spec)
  const causes: FieldCause[] = []
  const type = spec.type || 'ClusterIP'
  const clusterIPs = spec.clusterIPs?.length ? spec.clusterIPs : spec.clusterIP ? [spec.clusterIP] : []
  const headless = clusterIPs[0] === 'None'
  const ports = spec.ports ?? []
  if (!ports.length && !headless && type !== 'ExternalName') causes.push(required('spec.ports'))
  if ((type === 'LoadBalancer' || type === 'NodePort') && headless) {
    causes.push(invalid('spec.clusterIPs[0]', clusterIPs[0], `may not be set to 'None' for ${type} services`))
  }
  if (type === 'ExternalName') {
    if (clusterIPs.length) causes.push(forbidden('spec.clusterIPs', 'may not be set for ExternalName services'))
    // A trailing dot marks the name fully qualified.
    const cname = (spec.externalName ?? '').replace(/\.$/, '')
    if (cname) causes.push(...validateDns1123Subdomain(cname, 'spec.externalName'))
    else causes.push(required('spec.externalName'))
  }
  const names = new Set<string>()
  ports.forEach((p, i) => {
    const at = `spec.ports[${i}]`
    if (ports.length > 1 && !p.name) causes.push(required(`${at}.name`))
    else if (p.name) {
      causes.push(...validateDns1123Label(p.name, `${at}.name`))
      if (names.has(p.name)) causes.push(duplicate(`${at}.name`, p.name))
      else names.add(p.name)
    }
    const port = p.port ?? 0
    causes.push(...isValidPortNum(port).map((m) => invalid(`${at}.port`, port, m)))
    const protocol = p.protocol || 'TCP'
    if (!supportedProtocols.includes(protocol)) causes.push(notSupported(`${at}.protocol`, protocol, supportedProtocols))
    // An unset targetPort defaults to the port.
    const target = p.targetPort === undefined || p.targetPort === 0 || p.targetPort === '' ? port : p.targetPort
    if (typeof target === 'number') causes.push(...isValidPortNum(target).map((m) => invalid(`${at}.targetPort`, target, m)))
    else causes.push(...isValidPortName(target).map((m) => invalid(`${at}.targetPort`, target, m)))
    if (p.appProtocol !== undefined) causes.push(...validateQualifiedName(p.appProtocol, `${at}.appProtocol`))
  })
  if (spec.selector) causes.push(...validateLabels(spec.selector, 'spec.selector'))
  const affinity = spec.sessionAffinity || 'None'
  if (affinity !== 'ClientIP' && affinity !== 'None') causes.push(notSupported('spec.sessionAffinity', affinity, ['ClientIP', 'None']))
  if (!serviceTypes.includes(type)) causes.push(notSupported('spec.type', type, serviceTypes))
  if (type === 'ClusterIP') {
    ports.forEach((p, i) => {
      if (p.nodePort) causes.push(forbidden(`spec.ports[${i}].nodePort`, "may not be used when `type` is 'ClusterIP'"))
    })
  }
  const nodePorts = new Set<string>()
  ports.forEach((p, i) => {
    if (!p.nodePort) return
    const key = `${p.protocol || 'TCP'}/${p.nodePort}`
    if (nodePorts.has(key)) causes.push(duplicate(`spec.ports[${i}].nodePort`, p.nodePort))
    nodePorts.add(key)
  })
  const seen = new Set<string>()
  ports.forEach((p, i) => {
    const protocol = p.protocol || 'TCP'
    const port = p.port ?? 0
    const key = `${protocol}/${port}`
    if (seen.has(key)) causes.push(duplicate(`spec.ports[${i}]`, { protocol, port }, goServicePortKey(protocol, port)))
    seen.add(key)
  })
  return causes
}

/** ConfigMaps and Secrets together may hold at most 1 MiB of data. */
export const maxDataSize = 1024 * 1024

function base64Size(s: string): number {
  const clean = s.replace(/\s/g, '')
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding)
}

function validateConfigMap(obj: KubeObject): FieldCause[] {
  const data = read(stringMap, obj.data) ?? {}
  const binaryData = read(stringMap, obj.binaryData) ?? {}
  const causes: FieldCause[] = []
  let total = 0
  for (const [key, value] of Object.entries(data)) {
    causes.push(...isConfigMapKey(key).map((m) => invalid(`data[${key}]`, key, m)))
    if (Object.prototype.hasOwnProperty.call(binaryData, key)) causes.push(invalid(`data[${key}]`, key, 'duplicate of key present in binaryData'))
    total += byteLength(value)
  }
  for (const [key, value] of Object.entries(binaryData)) {
    causes.push(...isConfigMapKey(key).map((m) => invalid(`binaryData[${key}]`, key, m)))
    total += base64Size(value)
  }
  if (total > maxDataSize) causes.push(tooLong('', maxDataSize))
  return causes
}

function validateSecret(obj: KubeObject): FieldCause[] {
  // stringData is merged into data before validation, and wins on a shared key.
  const data = read(stringMap, obj.data) ?? {}
  const stringData = read(stringMap, obj.stringData) ?? {}
  const sizes = new Map<string, number>()
  for (const [k, v] of Object.entries(data)) sizes.set(k, base64Size(v))
  for (const [k, v] of Object.entries(stringData)) sizes.set(k, byteLength(v))
  const causes: FieldCause[] = []
  let total = 0
  for (const [key, size] of sizes) {
    causes.push(...isConfigMapKey(key).map((m) => invalid(`data[${key}]`, key, m)))
    total += size
  }
  if (total > maxDataSize) causes.push(tooLong('data', maxDataSize))
  const has = (key: string) => sizes.has(key)
  const type = typeof obj.type === 'string' ? obj.type : ''
  switch (type) {
    case 'kubernetes.io/service-account-token': {
      const annotations = read(objectMeta, obj.metadata).annotations ?? {}
      if (!annotations['kubernetes.io/service-account.name']) {
        causes.push(required('metadata.annotations[kubernetes.io/service-account.name]'))
      }
      break
    }
    case 'kubernetes.io/dockercfg':
      if (!has('.dockercfg')) causes.push(required('data[.dockercfg]'))
      break
    case 'kubernetes.io/dockerconfigjson':
      if (!has('.dockerconfigjson')) causes.push(required('data[.dockerconfigjson]'))
      break
    case 'kubernetes.io/basic-auth':
      if (!has('username') && !has('password')) causes.push(required('data[username]'), required('data[password]'))
      break
    case 'kubernetes.io/ssh-auth':
      if (!sizes.get('ssh-privatekey')) causes.push(required('data[ssh-privatekey]'))
      break
    case 'kubernetes.io/tls':
      if (!has('tls.crt')) causes.push(required('data[tls.crt]'))
      if (!has('tls.key')) causes.push(required('data[tls.key]'))
      break
  }
  return causes
}

// ---------------------------------------------------------------------------------------------

const validators = new Map<string, (obj: KubeObject) => FieldCause[]>([
  ['Pod', validatePod],
  ['PodTemplate', (obj) => validatePodTemplateSpec(obj.template, 'template')],
  ['ReplicationController', validateReplicationController],
  ['Deployment', validateDeployment],
  ['ReplicaSet', validateReplicaSet],
  ['StatefulSet', validateStatefulSet],
  ['DaemonSet', validateDaemonSet],
  ['Job', validateJob],
  ['CronJob', validateCronJob],
  ['Service', validateService],
  ['ConfigMap', validateConfigMap],
  ['Secret', validateSecret],
])

/** The kinds validateWorkload knows; any other kind has no spec rules here. */
export const validatedKinds: readonly string[] = [...validators.keys()]

/**
 * Spec causes for an object of `kind` on create, in upstream's order; empty when valid or when
 * the kind has no rules here.
 */
export function validateWorkload(kind: string, obj: KubeObject): FieldCause[] {
  return validators.get(kind)?.(obj) ?? []
}
