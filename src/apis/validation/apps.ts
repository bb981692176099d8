import {
  type FieldCause,
  forbidden,
  invalid,
  notSupported,
  required,
} from '../../apimachinery/field-errors'
import {
  type IntOrString,
  type PodTemplate,
  daemonSetSpec,
  deploymentSpec,
  read,
  replicaSetSpec,
  replicationControllerSpec,
  statefulSetSpec,
} from './shapes'
import type { KubeObject } from '../../apimachinery/types'
import {
  type LabelSelector,
  isEverything,
  matchesLabels,
  selectorFromSet,
} from '../../apimachinery/labels'
import {
  goLabelSelector,
  requiredSelector,
  selectorMismatch,
  toSelector,
  validateMetaLabelSelector,
} from './selectors'
import { validatePodTemplateSpec } from './pod-spec'
import { goIntOrString, goPointer, goQuote } from '../../apimachinery/go-format'
import {
  isNegativeErrorMsg,
  isValidPercent,
  validateAnnotations,
  validateLabels,
  validateNonnegative,
} from '../../apimachinery/field-formats'

/** Workload controllers: Deployment, ReplicaSet, DaemonSet, StatefulSet (pkg/apis/apps/validation) and ReplicationController. */

// The template of a controller whose pods always restart (ReplicaSet, Deployment, DaemonSet, RC).
export function validateTemplateForController(
  t: PodTemplate | undefined,
  sel: LabelSelector,
  path: string,
  kindWord: string,
): FieldCause[] {
  const causes: FieldCause[] = []
  if (!isEverything(sel) && !matchesLabels(sel, t?.metadata?.labels))
    causes.push(selectorMismatch(t, path))
  causes.push(...validatePodTemplateSpec(t, path))
  causes.push(...alwaysRestart(t, path, kindWord))
  return causes
}

export function alwaysRestart(
  t: PodTemplate | undefined,
  path: string,
  kindWord: string,
): FieldCause[] {
  const causes: FieldCause[] = []
  const policy = t?.spec?.restartPolicy || 'Always'
  if (policy !== 'Always')
    causes.push(notSupported(`${path}.spec.restartPolicy`, policy, ['Always']))
  if (t?.spec?.activeDeadlineSeconds !== undefined) {
    causes.push(
      forbidden(
        `${path}.spec.activeDeadlineSeconds`,
        `activeDeadlineSeconds in ${kindWord} is not Supported`,
      ),
    )
  }
  return causes
}

// intstr helpers: a valid percentage reads as its number, anything else as IntValue().
export function percentValue(v: IntOrString): number | undefined {
  return typeof v === 'string' && !isValidPercent(v).length ? Number(v.slice(0, -1)) : undefined
}

export function intOrPercentValue(v: IntOrString): number {
  const p = percentValue(v)
  if (p !== undefined) return p
  if (typeof v === 'number') return v
  return /^[+-]?\d+$/.test(v) ? Number(v) : 0
}

export function validatePositiveIntOrPercent(v: IntOrString, path: string): FieldCause[] {
  if (typeof v === 'string')
    return isValidPercent(v).map((m) => invalid(path, v, m, goIntOrString(v)))
  return v < 0 ? [invalid(path, v, isNegativeErrorMsg)] : []
}

export function notMoreThan100Percent(v: IntOrString, path: string): FieldCause[] {
  const p = percentValue(v)
  return p !== undefined && p > 100
    ? [invalid(path, v, 'must not be greater than 100%', goIntOrString(v))]
    : []
}

export function validateDeployment(obj: KubeObject): FieldCause[] {
  const spec = read(deploymentSpec, obj.spec)
  const causes = validateNonnegative(spec.replicas ?? 1, 'spec.replicas')
  causes.push(...requiredSelector(spec.selector, 'spec.selector', 'deployment'))
  const sel = toSelector(spec.selector)
  if (!sel)
    causes.push(
      invalid(
        'spec.selector',
        spec.selector,
        'invalid label selector',
        goLabelSelector(spec.selector),
      ),
    )
  else
    causes.push(...validateTemplateForController(spec.template, sel, 'spec.template', 'ReplicaSet'))

  const strategy = spec.strategy ?? {}
  const type = strategy.type || 'RollingUpdate'
  if (type === 'Recreate') {
    if (strategy.rollingUpdate)
      causes.push(
        forbidden(
          'spec.strategy.rollingUpdate',
          "may not be specified when strategy `type` is 'Recreate'",
        ),
      )
  } else if (type === 'RollingUpdate') {
    const path = 'spec.strategy.rollingUpdate'
    const maxUnavailable = strategy.rollingUpdate?.maxUnavailable ?? '25%'
    const maxSurge = strategy.rollingUpdate?.maxSurge ?? '25%'
    causes.push(...validatePositiveIntOrPercent(maxUnavailable, `${path}.maxUnavailable`))
    causes.push(...validatePositiveIntOrPercent(maxSurge, `${path}.maxSurge`))
    if (intOrPercentValue(maxUnavailable) === 0 && intOrPercentValue(maxSurge) === 0) {
      causes.push(
        invalid(
          `${path}.maxUnavailable`,
          maxUnavailable,
          'may not be 0 when `maxSurge` is 0',
          goIntOrString(maxUnavailable),
        ),
      )
    }
    causes.push(...notMoreThan100Percent(maxUnavailable, `${path}.maxUnavailable`))
  } else {
    const display = `apps.DeploymentStrategy{Type:${goQuote(type)}, RollingUpdate:${goPointer('apps.RollingUpdateDeployment', !!strategy.rollingUpdate)}}`
    causes.push(notSupported('spec.strategy', strategy, ['Recreate', 'RollingUpdate'], display))
  }

  const minReadySeconds = spec.minReadySeconds ?? 0
  causes.push(...validateNonnegative(minReadySeconds, 'spec.minReadySeconds'))
  if (spec.revisionHistoryLimit !== undefined)
    causes.push(...validateNonnegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'))
  const progressDeadline = spec.progressDeadlineSeconds ?? 600
  causes.push(...validateNonnegative(progressDeadline, 'spec.progressDeadlineSeconds'))
  if (progressDeadline <= minReadySeconds)
    causes.push(
      invalid(
        'spec.progressDeadlineSeconds',
        progressDeadline,
        'must be greater than minReadySeconds',
      ),
    )
  return causes
}

export function validateReplicaSet(obj: KubeObject): FieldCause[] {
  const spec = read(replicaSetSpec, obj.spec)
  const causes = validateNonnegative(spec.replicas ?? 1, 'spec.replicas')
  causes.push(...validateNonnegative(spec.minReadySeconds ?? 0, 'spec.minReadySeconds'))
  // Upstream shares the Deployment wording here.
  causes.push(...requiredSelector(spec.selector, 'spec.selector', 'deployment'))
  const sel = toSelector(spec.selector)
  if (!sel)
    causes.push(
      invalid(
        'spec.selector',
        spec.selector,
        'invalid label selector',
        goLabelSelector(spec.selector),
      ),
    )
  else
    causes.push(...validateTemplateForController(spec.template, sel, 'spec.template', 'ReplicaSet'))
  return causes
}

export function validateDaemonSet(obj: KubeObject): FieldCause[] {
  const spec = read(daemonSetSpec, obj.spec)
  // A DaemonSet's selector is not required as such: a missing one simply matches no template.
  const causes = validateMetaLabelSelector(spec.selector, 'spec.selector')
  const sel = toSelector(spec.selector)
  if (sel && !matchesLabels(sel, spec.template?.metadata?.labels))
    causes.push(selectorMismatch(spec.template, 'spec.template'))
  if (
    spec.selector &&
    Object.keys(spec.selector.matchLabels ?? {}).length +
      (spec.selector.matchExpressions ?? []).length ===
      0
  ) {
    causes.push(
      invalid(
        'spec.selector',
        spec.selector,
        'empty selector is invalid for daemonset',
        goLabelSelector(spec.selector),
      ),
    )
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
      causes.push(
        invalid(
          `${path}.maxSurge`,
          maxSurge,
          'may not be set when maxUnavailable is non-zero',
          goIntOrString(maxSurge),
        ),
      )
    } else if (!hasUnavailable && !hasSurge) {
      causes.push(required(`${path}.maxUnavailable`, 'cannot be 0 when maxSurge is 0'))
    }
  } else if (type !== 'OnDelete') {
    const display = `apps.DaemonSetUpdateStrategy{Type:${goQuote(type)}, RollingUpdate:${goPointer('apps.RollingUpdateDaemonSet', !!strategy.rollingUpdate)}}`
    causes.push(
      notSupported('spec.updateStrategy', strategy, ['RollingUpdate', 'OnDelete'], display),
    )
  }
  if (spec.revisionHistoryLimit !== undefined)
    causes.push(...validateNonnegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'))
  return causes
}

/**
 * Upstream does not validate a StatefulSet's pod spec, only its template's labels and
 * annotations: a bad container surfaces when the controller creates the pods.
 */
export function validateStatefulSet(obj: KubeObject): FieldCause[] {
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
    if (ru)
      causes.push(
        invalid(
          'spec.updateStrategy.rollingUpdate',
          ru,
          "only allowed for updateStrategy 'RollingUpdate'",
          ruDisplay,
        ),
      )
  } else if (type === 'RollingUpdate') {
    if (ru) {
      const path = 'spec.updateStrategy.rollingUpdate'
      causes.push(...validateNonnegative(ru.partition ?? 0, `${path}.partition`))
      if (ru.maxUnavailable !== undefined) {
        causes.push(...validatePositiveIntOrPercent(ru.maxUnavailable, `${path}.maxUnavailable`))
        if (intOrPercentValue(ru.maxUnavailable) === 0) {
          causes.push(
            invalid(
              `${path}.maxUnavailable`,
              ru.maxUnavailable,
              'cannot be 0',
              goIntOrString(ru.maxUnavailable),
            ),
          )
        }
        causes.push(...notMoreThan100Percent(ru.maxUnavailable, `${path}.maxUnavailable`))
      }
    }
  } else {
    const display = `apps.StatefulSetUpdateStrategy{Type:${goQuote(type)}, RollingUpdate:${goPointer('apps.RollingUpdateStatefulSetStrategy', !!ru)}}`
    causes.push(
      invalid('spec.updateStrategy', strategy, "must be 'RollingUpdate' or 'OnDelete'", display),
    )
  }
  causes.push(...validateNonnegative(spec.replicas ?? 1, 'spec.replicas'))
  causes.push(...validateNonnegative(spec.minReadySeconds ?? 0, 'spec.minReadySeconds'))
  causes.push(...requiredSelector(spec.selector, 'spec.selector', 'statefulset'))
  const sel = toSelector(spec.selector)
  if (!sel) {
    causes.push(invalid('spec.selector', spec.selector, '', goLabelSelector(spec.selector)))
  } else {
    if (!isEverything(sel) && !matchesLabels(sel, spec.template?.metadata?.labels))
      causes.push(selectorMismatch(spec.template, 'spec.template'))
    causes.push(...validateLabels(spec.template?.metadata?.labels, 'spec.template.labels'))
    causes.push(
      ...validateAnnotations(spec.template?.metadata?.annotations, 'spec.template.annotations'),
    )
  }
  causes.push(...alwaysRestart(spec.template, 'spec.template', 'StatefulSet'))
  return causes
}

export function validateReplicationController(obj: KubeObject): FieldCause[] {
  const spec = read(replicationControllerSpec, obj.spec)
  const causes = validateNonnegative(spec.minReadySeconds ?? 0, 'spec.minReadySeconds')
  // An empty selector defaults to the template's labels.
  const selectorMap = Object.keys(spec.selector ?? {}).length
    ? spec.selector!
    : (spec.template?.metadata?.labels ?? {})
  if (!Object.keys(selectorMap).length) causes.push(required('spec.selector'))
  causes.push(...validateNonnegative(spec.replicas ?? 1, 'spec.replicas'))
  if (!spec.template) {
    causes.push(required('spec.template'))
  } else {
    causes.push(
      ...validateTemplateForController(
        spec.template,
        selectorFromSet(selectorMap),
        'spec.template',
        'ReplicationController',
      ),
    )
  }
  return causes
}
