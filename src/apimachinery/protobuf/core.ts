import { ObjectMeta } from './meta'
import {
  bool,
  inline,
  int,
  intstr,
  list,
  map,
  msg,
  quantity,
  str,
  strs,
  type Table,
} from './schema'

/** core/v1 messages: the kinds kubectl's create generators send and the pod template they fill. */

const LocalObjectReference: Table = { 1: str('name') }

const KeyToPath: Table = {
  1: str('key', { keep: true }),
  2: str('path', { keep: true }),
  3: int('mode', { keep: true }),
}

const VolumeSource: Table = {
  1: msg('hostPath', () => ({ 1: str('path', { keep: true }), 2: str('type', { keep: true }) })),
  2: msg('emptyDir', () => ({ 1: str('medium'), 2: quantity('sizeLimit') })),
  6: msg('secret', () => ({
    1: str('secretName'),
    2: list('items', () => KeyToPath),
    3: int('defaultMode', { keep: true }),
    4: bool('optional', { keep: true }),
  })),
  10: msg('persistentVolumeClaim', () => ({
    1: str('claimName', { keep: true }),
    2: bool('readOnly'),
  })),
  19: msg('configMap', () => ({
    1: inline(() => LocalObjectReference),
    2: list('items', () => KeyToPath),
    3: int('defaultMode', { keep: true }),
    4: bool('optional', { keep: true }),
  })),
}

const Volume: Table = { 1: str('name', { keep: true }), 2: inline(() => VolumeSource) }

const ContainerPort: Table = {
  1: str('name'),
  2: int('hostPort'),
  3: int('containerPort', { keep: true }),
  4: str('protocol'),
  5: str('hostIP'),
}

const keySelector: Table = {
  1: inline(() => LocalObjectReference),
  2: str('key', { keep: true }),
  3: bool('optional', { keep: true }),
}

const EnvVarSource: Table = {
  1: msg('fieldRef', () => ({ 1: str('apiVersion'), 2: str('fieldPath', { keep: true }) })),
  2: msg('resourceFieldRef', () => ({
    1: str('containerName'),
    2: str('resource', { keep: true }),
    3: quantity('divisor'),
  })),
  3: msg('configMapKeyRef', () => keySelector),
  4: msg('secretKeyRef', () => keySelector),
}

const EnvVar: Table = {
  1: str('name', { keep: true }),
  2: str('value'),
  3: msg('valueFrom', () => EnvVarSource),
}

const envSource: Table = {
  1: inline(() => LocalObjectReference),
  2: bool('optional', { keep: true }),
}

const EnvFromSource: Table = {
  1: str('prefix'),
  2: msg('configMapRef', () => envSource),
  3: msg('secretRef', () => envSource),
}

export const ResourceRequirements: Table = {
  1: map('limits', 'quantity'),
  2: map('requests', 'quantity'),
  3: list('claims', () => ({ 1: str('name', { keep: true }), 2: str('request') })),
}

const VolumeMount: Table = {
  1: str('name', { keep: true }),
  2: bool('readOnly'),
  7: str('recursiveReadOnly', { keep: true }),
  3: str('mountPath', { keep: true }),
  4: str('subPath'),
  5: str('mountPropagation', { keep: true }),
  6: str('subPathExpr'),
}

const SecurityContext: Table = {
  1: msg('capabilities', () => ({ 1: strs('add'), 2: strs('drop') })),
  2: bool('privileged', { keep: true }),
  4: int('runAsUser', { keep: true }),
  8: int('runAsGroup', { keep: true }),
  5: bool('runAsNonRoot', { keep: true }),
  6: bool('readOnlyRootFilesystem', { keep: true }),
  7: bool('allowPrivilegeEscalation', { keep: true }),
  9: str('procMount', { keep: true }),
}

export const Container: Table = {
  1: str('name', { keep: true }),
  2: str('image'),
  3: strs('command'),
  4: strs('args'),
  5: str('workingDir'),
  6: list('ports', () => ContainerPort),
  19: list('envFrom', () => EnvFromSource),
  7: list('env', () => EnvVar),
  // A struct without a pointer: JSON always has `resources: {}`, and so does the protobuf form.
  8: msg('resources', () => ResourceRequirements),
  24: str('restartPolicy', { keep: true }),
  9: list('volumeMounts', () => VolumeMount),
  13: str('terminationMessagePath'),
  20: str('terminationMessagePolicy'),
  14: str('imagePullPolicy'),
  15: msg('securityContext', () => SecurityContext),
  16: bool('stdin'),
  17: bool('stdinOnce'),
  18: bool('tty'),
}

const PodSecurityContext: Table = {
  2: int('runAsUser', { keep: true }),
  6: int('runAsGroup', { keep: true }),
  3: bool('runAsNonRoot', { keep: true }),
  4: { name: 'supplementalGroups', type: 'int', repeated: true },
  5: int('fsGroup', { keep: true }),
  9: str('fsGroupChangePolicy', { keep: true }),
}

const Toleration: Table = {
  1: str('key'),
  2: str('operator'),
  3: str('value'),
  4: str('effect'),
  5: int('tolerationSeconds', { keep: true }),
}

export const PodSpec: Table = {
  1: list('volumes', () => Volume),
  20: list('initContainers', () => Container),
  // No omitempty upstream: `containers: null` when empty; a missing list stays absent here.
  2: list('containers', () => Container),
  3: str('restartPolicy'),
  4: int('terminationGracePeriodSeconds', { keep: true }),
  5: int('activeDeadlineSeconds', { keep: true }),
  6: str('dnsPolicy'),
  7: map('nodeSelector'),
  8: str('serviceAccountName'),
  9: str('serviceAccount'),
  21: bool('automountServiceAccountToken', { keep: true }),
  10: str('nodeName'),
  11: bool('hostNetwork'),
  12: bool('hostPID'),
  13: bool('hostIPC'),
  27: bool('shareProcessNamespace', { keep: true }),
  14: msg('securityContext', () => PodSecurityContext),
  15: list('imagePullSecrets', () => LocalObjectReference),
  16: str('hostname'),
  17: str('subdomain'),
  19: str('schedulerName'),
  22: list('tolerations', () => Toleration),
  24: str('priorityClassName'),
  25: int('priority', { keep: true }),
  29: str('runtimeClassName', { keep: true }),
  30: bool('enableServiceLinks', { keep: true }),
  31: str('preemptionPolicy', { keep: true }),
  35: bool('setHostnameAsFQDN', { keep: true }),
  37: bool('hostUsers', { keep: true }),
}

export const PodTemplateSpec: Table = {
  1: msg('metadata', () => ObjectMeta),
  2: msg('spec', () => PodSpec),
}

export const Namespace: Table = {
  1: msg('metadata', () => ObjectMeta),
  2: msg('spec', () => ({ 1: strs('finalizers') })),
  3: msg('status', () => ({ 1: str('phase') })),
}

export const ConfigMap: Table = {
  1: msg('metadata', () => ObjectMeta),
  4: bool('immutable', { keep: true }),
  2: map('data'),
  3: map('binaryData', 'bytes'),
}

export const Secret: Table = {
  1: msg('metadata', () => ObjectMeta),
  5: bool('immutable', { keep: true }),
  // Bytes in protobuf, base64 strings in JSON.
  2: map('data', 'bytes'),
  4: map('stringData'),
  3: str('type'),
}

const ObjectReference: Table = {
  1: str('kind'),
  2: str('namespace'),
  3: str('name'),
  4: str('uid'),
  5: str('apiVersion'),
  6: str('resourceVersion'),
  7: str('fieldPath'),
}

export const ServiceAccount: Table = {
  1: msg('metadata', () => ObjectMeta),
  2: list('secrets', () => ObjectReference),
  3: list('imagePullSecrets', () => LocalObjectReference),
  4: bool('automountServiceAccountToken', { keep: true }),
}

const ServicePort: Table = {
  1: str('name'),
  2: str('protocol'),
  6: str('appProtocol', { keep: true }),
  3: int('port', { keep: true }),
  4: intstr('targetPort'),
  5: int('nodePort'),
}

const ServiceSpec: Table = {
  1: list('ports', () => ServicePort),
  2: map('selector'),
  3: str('clusterIP'),
  18: strs('clusterIPs'),
  4: str('type'),
  5: strs('externalIPs'),
  7: str('sessionAffinity'),
  8: str('loadBalancerIP'),
  9: strs('loadBalancerSourceRanges'),
  10: str('externalName'),
  11: str('externalTrafficPolicy'),
  12: int('healthCheckNodePort'),
  13: bool('publishNotReadyAddresses'),
  14: msg('sessionAffinityConfig', () => ({
    1: msg('clientIP', () => ({ 1: int('timeoutSeconds', { keep: true }) })),
  })),
  19: strs('ipFamilies'),
  17: str('ipFamilyPolicy', { keep: true }),
  20: bool('allocateLoadBalancerNodePorts', { keep: true }),
  21: str('loadBalancerClass', { keep: true }),
  22: str('internalTrafficPolicy', { keep: true }),
  23: str('trafficDistribution', { keep: true }),
}

export const Service: Table = {
  1: msg('metadata', () => ObjectMeta),
  2: msg('spec', () => ServiceSpec),
  // Status is the server's to write; only its shape is kept ({loadBalancer: {}}).
  3: msg('status', () => ({ 1: msg('loadBalancer', () => ({})) })),
}
