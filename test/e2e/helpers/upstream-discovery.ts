/**
 * What kube-apiserver v1.32 publishes in discovery for each resource, as `kubectl api-resources -o
 * wide` prints it: short names and categories from each kind's REST storage (ShortNames(),
 * Categories() under pkg/registry/<group>/<kind>/storage in kubernetes/kubernetes), verbs from
 * the storage interfaces it implements. Kept for every kind a Kubernetes user meets in everyday
 * manifests, served here or not yet.
 */
export interface UpstreamResource {
  shortNames: string
  namespaced: boolean
  kind: string
  verbs: string
  categories: string
}

const all8 = 'create,delete,deletecollection,get,list,patch,update,watch'
const r = (
  kind: string,
  namespaced: boolean,
  shortNames = '',
  categories = '',
  verbs = all8,
): UpstreamResource => ({ shortNames, namespaced, kind, verbs, categories })

/** Keyed `<plural> <apiVersion>`. */
export const upstreamResources: Record<string, UpstreamResource> = {
  'bindings v1': r('Binding', true, '', '', 'create'),
  'componentstatuses v1': r('ComponentStatus', false, 'cs', '', 'get,list'),
  'configmaps v1': r('ConfigMap', true, 'cm'),
  'endpoints v1': r('Endpoints', true, 'ep'),
  'events v1': r('Event', true, 'ev'),
  'limitranges v1': r('LimitRange', true, 'limits'),
  'namespaces v1': r('Namespace', false, 'ns', '', 'create,delete,get,list,patch,update,watch'),
  'nodes v1': r('Node', false, 'no'),
  'persistentvolumeclaims v1': r('PersistentVolumeClaim', true, 'pvc'),
  'persistentvolumes v1': r('PersistentVolume', false, 'pv'),
  'pods v1': r('Pod', true, 'po', 'all'),
  'podtemplates v1': r('PodTemplate', true),
  'replicationcontrollers v1': r('ReplicationController', true, 'rc', 'all'),
  'resourcequotas v1': r('ResourceQuota', true, 'quota'),
  'secrets v1': r('Secret', true),
  'serviceaccounts v1': r('ServiceAccount', true, 'sa'),
  'services v1': r('Service', true, 'svc', 'all'),
  'mutatingwebhookconfigurations admissionregistration.k8s.io/v1': r(
    'MutatingWebhookConfiguration',
    false,
    '',
    'api-extensions',
  ),
  'validatingadmissionpolicies admissionregistration.k8s.io/v1': r(
    'ValidatingAdmissionPolicy',
    false,
    '',
    'api-extensions',
  ),
  'validatingadmissionpolicybindings admissionregistration.k8s.io/v1': r(
    'ValidatingAdmissionPolicyBinding',
    false,
    '',
    'api-extensions',
  ),
  'validatingwebhookconfigurations admissionregistration.k8s.io/v1': r(
    'ValidatingWebhookConfiguration',
    false,
    '',
    'api-extensions',
  ),
  'customresourcedefinitions apiextensions.k8s.io/v1': r(
    'CustomResourceDefinition',
    false,
    'crd,crds',
    'api-extensions',
  ),
  'apiservices apiregistration.k8s.io/v1': r('APIService', false, '', 'api-extensions'),
  'controllerrevisions apps/v1': r('ControllerRevision', true),
  'daemonsets apps/v1': r('DaemonSet', true, 'ds', 'all'),
  'deployments apps/v1': r('Deployment', true, 'deploy', 'all'),
  'replicasets apps/v1': r('ReplicaSet', true, 'rs', 'all'),
  'statefulsets apps/v1': r('StatefulSet', true, 'sts', 'all'),
  'selfsubjectreviews authentication.k8s.io/v1': r('SelfSubjectReview', false, '', '', 'create'),
  'tokenreviews authentication.k8s.io/v1': r('TokenReview', false, '', '', 'create'),
  'localsubjectaccessreviews authorization.k8s.io/v1': r(
    'LocalSubjectAccessReview',
    true,
    '',
    '',
    'create',
  ),
  'selfsubjectaccessreviews authorization.k8s.io/v1': r(
    'SelfSubjectAccessReview',
    false,
    '',
    '',
    'create',
  ),
  'selfsubjectrulesreviews authorization.k8s.io/v1': r(
    'SelfSubjectRulesReview',
    false,
    '',
    '',
    'create',
  ),
  'subjectaccessreviews authorization.k8s.io/v1': r('SubjectAccessReview', false, '', '', 'create'),
  'horizontalpodautoscalers autoscaling/v2': r('HorizontalPodAutoscaler', true, 'hpa', 'all'),
  'flowschemas flowcontrol.apiserver.k8s.io/v1': r('FlowSchema', false),
  'prioritylevelconfigurations flowcontrol.apiserver.k8s.io/v1': r(
    'PriorityLevelConfiguration',
    false,
  ),
  'cronjobs batch/v1': r('CronJob', true, 'cj', 'all'),
  'jobs batch/v1': r('Job', true, '', 'all'),
  'certificatesigningrequests certificates.k8s.io/v1': r('CertificateSigningRequest', false, 'csr'),
  'leases coordination.k8s.io/v1': r('Lease', true),
  'endpointslices discovery.k8s.io/v1': r('EndpointSlice', true),
  'events events.k8s.io/v1': r('Event', true, 'ev'),
  'ingressclasses networking.k8s.io/v1': r('IngressClass', false),
  'ingresses networking.k8s.io/v1': r('Ingress', true, 'ing'),
  'networkpolicies networking.k8s.io/v1': r('NetworkPolicy', true, 'netpol'),
  'runtimeclasses node.k8s.io/v1': r('RuntimeClass', false),
  'poddisruptionbudgets policy/v1': r('PodDisruptionBudget', true, 'pdb'),
  'clusterrolebindings rbac.authorization.k8s.io/v1': r('ClusterRoleBinding', false),
  'clusterroles rbac.authorization.k8s.io/v1': r('ClusterRole', false),
  'rolebindings rbac.authorization.k8s.io/v1': r('RoleBinding', true),
  'roles rbac.authorization.k8s.io/v1': r('Role', true),
  'priorityclasses scheduling.k8s.io/v1': r('PriorityClass', false, 'pc'),
  'csidrivers storage.k8s.io/v1': r('CSIDriver', false),
  'csinodes storage.k8s.io/v1': r('CSINode', false),
  'csistoragecapacities storage.k8s.io/v1': r('CSIStorageCapacity', true),
  'storageclasses storage.k8s.io/v1': r('StorageClass', false, 'sc'),
  'volumeattachments storage.k8s.io/v1': r('VolumeAttachment', false),
}
