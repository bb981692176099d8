// The corpus documents that are refused, each with kubectl's error for it (file path and test namespace left out).
// Written by `EDGEPLANE_CORPUS_RECORD=1 npx vitest run --config test/vitest.config.ts test/e2e/corpus.test.ts`.
export const acceptedFloor = 510
export const refusals: Record<string, string> = {
  'kubernetes-website/access/admission-webhook-match-conditions.yaml#0':
    'resource name may not be empty',
  'kubernetes-website/access/certificate-signing-request/clusterrole-sign.yaml:ClusterRole/csr-signer':
    'Error from server (BadRequest): ClusterRole in version "v1" cannot be handled as a ClusterRole: strict decoding error: unknown field "rules[2].resourceName"',
  'kubernetes-website/access/deployment-replicas-policy.yaml:ValidatingAdmissionPolicy/deploy-replica-policy.example.com':
    'no matches for kind "ValidatingAdmissionPolicy" in version "admissionregistration.k8s.io/v1alpha1"',
  'kubernetes-website/access/image-matches-namespace-environment.policy.yaml:ValidatingAdmissionPolicy/image-matches-namespace-environment.policy.example.com':
    'no matches for kind "ValidatingAdmissionPolicy" in version "admissionregistration.k8s.io/v1beta1"',
  'kubernetes-website/access/manifest-admission-control/default-pod-security-baseline.yaml:MutatingAdmissionPolicy/default-pod-security-baseline':
    'no matches for kind "MutatingAdmissionPolicy" in version "admissionregistration.k8s.io/v1"',
  'kubernetes-website/access/manifest-admission-control/default-pod-security-configurable.yaml:MutatingAdmissionPolicy/default-pod-security-configurable':
    'no matches for kind "MutatingAdmissionPolicy" in version "admissionregistration.k8s.io/v1"',
  'kubernetes-website/access/manifest-admission-control/validating-webhook.yaml:ValidatingWebhookConfiguration/example-security-webhook.static.k8s.io':
    'Error from server (BadRequest): ValidatingWebhookConfiguration in version "v1" cannot be handled as a ValidatingWebhookConfiguration: illegal base64 data at input byte 0',
  'kubernetes-website/access/validating-admission-policy-audit-annotation.yaml:ValidatingAdmissionPolicy/demo-policy.example.com':
    'no matches for kind "ValidatingAdmissionPolicy" in version "admissionregistration.k8s.io/v1alpha1"',
  'kubernetes-website/access/validating-admission-policy-match-conditions.yaml:ValidatingAdmissionPolicy/demo-policy.example.com':
    'no matches for kind "ValidatingAdmissionPolicy" in version "admissionregistration.k8s.io/v1alpha1"',
  'kubernetes-website/access/validating-webhook-configuration-match-conditions.yaml#0':
    'resource name may not be empty',
  'kubernetes-website/application/job/cronjob.yaml:CronJob/hello':
    'no matches for kind "CronJob" in version "batch/v1beta1"',
  'kubernetes-website/application/job/job-tmpl.yaml:Job/process-item-$ITEM':
    "The Job \"process-item-$ITEM\" is invalid: * metadata.name: Invalid value: \"process-item-$ITEM\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*') * spec.template.labels: Invalid value: \"process-item-$ITEM\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue', or 'my_value', or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
  'kubernetes-website/application/volume-snaphot.yaml:VolumeSnapshot/example-snapshot':
    'no matches for kind "VolumeSnapshot" in version "snapshot.storage.k8s.io/v1"',
  'kubernetes-website/application/volume-snapshot-class.yaml:VolumeSnapshotClass/example-snapshot-class':
    'no matches for kind "VolumeSnapshotClass" in version "snapshot.storage.k8s.io/v1"',
  'kubernetes-website/concepts/policy/limit-range/problematic-limit-range.yaml:LimitRange/cpu-resource-constraint':
    "The LimitRange \"cpu-resource-constraint\" is invalid: * spec.limits[0].type: Invalid value: \"\": name part must be non-empty * spec.limits[0].type: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName', or 'my.name', or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
  'kubernetes-website/controllers/job-success-policy-example.yaml#0':
    'resource name may not be empty',
  'kubernetes-website/dra/deviceclass.yaml:DeviceClass/example-device-class':
    'no matches for kind "DeviceClass" in version "resource.k8s.io/v1beta2"',
  'kubernetes-website/dra/dra-device-metadata-pod.yaml:ResourceClaim/gpu-claim':
    'no matches for kind "ResourceClaim" in version "resource.k8s.io/v1"',
  'kubernetes-website/dra/dra-device-metadata-template-pod.yaml:ResourceClaimTemplate/gpu-claim-template':
    'no matches for kind "ResourceClaimTemplate" in version "resource.k8s.io/v1"',
  'kubernetes-website/dra/driver-install/all.yaml:DeviceClass/gpu.example.com':
    'no matches for kind "DeviceClass" in version "resource.k8s.io/v1beta1"',
  'kubernetes-website/dra/driver-install/deviceclass.yaml:DeviceClass/gpu.example.com':
    'no matches for kind "DeviceClass" in version "resource.k8s.io/v1beta1"',
  'kubernetes-website/dra/driver-install/example/all.yaml:ResourceClaim/some-gpu':
    'no matches for kind "ResourceClaim" in version "resource.k8s.io/v1beta2"',
  'kubernetes-website/dra/driver-install/example/resourceclaim.yaml:ResourceClaim/some-gpu':
    'no matches for kind "ResourceClaim" in version "resource.k8s.io/v1"',
  'kubernetes-website/dra/resourceclaim.yaml:ResourceClaim/example-resource-claim':
    'no matches for kind "ResourceClaim" in version "resource.k8s.io/v1"',
  'kubernetes-website/dra/resourceclaimtemplate.yaml:ResourceClaimTemplate/example-resource-claim-template':
    'no matches for kind "ResourceClaimTemplate" in version "resource.k8s.io/v1"',
  'kubernetes-website/mutatingadmissionpolicy/applyconfiguration-example-binding.yaml:MutatingAdmissionPolicyBinding/sidecar-policy.example.com':
    'no matches for kind "MutatingAdmissionPolicyBinding" in version "admissionregistration.k8s.io/v1"',
  'kubernetes-website/mutatingadmissionpolicy/applyconfiguration-example.yaml:MutatingAdmissionPolicy/sidecar-policy.example.com':
    'no matches for kind "MutatingAdmissionPolicy" in version "admissionregistration.k8s.io/v1alpha1"',
  'kubernetes-website/mutatingadmissionpolicy/json-patch-example.yaml:MutatingAdmissionPolicy/sidecar-policy.example.com':
    'no matches for kind "MutatingAdmissionPolicy" in version "admissionregistration.k8s.io/v1beta1"',
  'kubernetes-website/pods/emptydir-volume-mode.yaml:Pod/emptydir-mode-demo':
    'Error from server (BadRequest): Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.volumes[0].emptyDir.mode"',
  'kubernetes-website/pods/inject/envars-file-container.yaml#0':
    'Error from server (BadRequest): Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].env[0].valueFrom.fileKeyRef"',
  'kubernetes-website/pods/inject/pod-multiple-secret-env-variable.yaml#0':
    'error parsing FILE: error converting YAML to JSON: yaml: line 15: found a tab character that violates indentation',
  'kubernetes-website/pods/inject/pod-single-secret-env-variable.yaml:Pod/secret-envars-test-pod':
    'error validating "FILE": error validating data: apiVersion not set; if you choose to ignore these errors, turn validation off with --validate=false',
  'kubernetes-website/pods/pod-with-node-affinity.yaml:Pod/with-node-affinity':
    'Error from server (BadRequest): Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal array into Go struct field NodeAffinity.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution of type v1.NodeSelector',
  'kubernetes-website/pods/pod-with-numeric-toleration.yaml:Pod/nginx-numeric-toleration':
    'The Pod "nginx-numeric-toleration" is invalid: spec.tolerations[0].operator: Unsupported value: "Gt": supported values: "Equal", "Exists"',
  'kubernetes-website/pods/probe/grpc-liveness.yaml:Pod/etcd-with-grpc':
    'Error from server (BadRequest): Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].livenessProbe.gRPC"',
  'kubernetes-website/pods/restart-policy/restart-all-containers.yaml:Pod/ml-worker':
    'Error from server (BadRequest): Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.initContainers[1].restartPolicyRules"',
  'kubernetes-website/pods/security/security-context-7.yaml:Pod/security-context-demo-7':
    'Error from server (BadRequest): Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].securityContext.cgroupOptions"',
  'kubernetes-website/pods/storage/projected-clustertrustbundle.yaml:Pod/sa-ctb-name-test':
    'The Pod "sa-ctb-name-test" is invalid: spec.containers[0].volumeMounts[0].name: Not found: "token-vol"',
  'kubernetes-website/pods/storage/projected-podcertificate.yaml:Pod/podcertificate-pod':
    'Error from server (BadRequest): Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.volumes[0].projected.sources[0].podCertificate"',
  'kubernetes-website/policy/baseline-psp.yaml:PodSecurityPolicy/baseline':
    'no matches for kind "PodSecurityPolicy" in version "policy/v1beta1"',
  'kubernetes-website/policy/example-psp.yaml:PodSecurityPolicy/example':
    'no matches for kind "PodSecurityPolicy" in version "policy/v1beta1"',
  'kubernetes-website/policy/high-priority-pod.yaml:Pod/high-priority':
    'Error from server (Forbidden): pods "high-priority" is forbidden: no PriorityClass with name high was found',
  'kubernetes-website/policy/privileged-psp.yaml:PodSecurityPolicy/privileged':
    'no matches for kind "PodSecurityPolicy" in version "policy/v1beta1"',
  'kubernetes-website/policy/quota-vac.yaml:ResourceQuota/pvcs-copper':
    'Error from server (Invalid): ResourceQuota "pvcs-copper" is invalid: spec.scopeSelector.matchExpressions[0].scopeName: Unsupported value: "VolumeAttributesClass": supported values: "BestEffort", "CrossNamespacePodAffinity", "NotBestEffort", "NotTerminating", "PriorityClass", "Terminating"',
  'kubernetes-website/policy/quota-vac.yaml:ResourceQuota/pvcs-gold':
    'Error from server (Invalid): ResourceQuota "pvcs-gold" is invalid: spec.scopeSelector.matchExpressions[0].scopeName: Unsupported value: "VolumeAttributesClass": supported values: "BestEffort", "CrossNamespacePodAffinity", "NotBestEffort", "NotTerminating", "PriorityClass", "Terminating"',
  'kubernetes-website/policy/quota-vac.yaml:ResourceQuota/pvcs-silver':
    'Error from server (Invalid): ResourceQuota "pvcs-silver" is invalid: spec.scopeSelector.matchExpressions[0].scopeName: Unsupported value: "VolumeAttributesClass": supported values: "BestEffort", "CrossNamespacePodAffinity", "NotBestEffort", "NotTerminating", "PriorityClass", "Terminating"',
  'kubernetes-website/policy/restricted-psp.yaml:PodSecurityPolicy/restricted':
    'no matches for kind "PodSecurityPolicy" in version "policy/v1beta1"',
  'kubernetes-website/priority-and-fairness/health-for-strangers.yaml:FlowSchema/health-for-strangers':
    'no matches for kind "FlowSchema" in version "flowcontrol.apiserver.k8s.io/v1beta2"',
  'kubernetes-website/priority-and-fairness/list-events-default-service-account.yaml:FlowSchema/list-events-default-service-account':
    'no matches for kind "FlowSchema" in version "flowcontrol.apiserver.k8s.io/v1beta3"',
  'kubernetes-website/secret/serviceaccount/mysecretname.yaml:Secret/mysecretname':
    'unable to decode "FILE": json: cannot unmarshal array into Go struct field ObjectMeta.metadata.annotations of type map[string]string',
  'kubernetes-website/secret/tls-auth-secret.yaml:Secret/secret-tls':
    'Error from server (BadRequest): Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 7',
  'kubernetes-website/service/networking/dual-stack-ipfamilies-ipv6.yaml:Service/my-service':
    'The Service "my-service" is invalid: spec.ipFamilies[0]: Invalid value: "IPv6": not configured on this cluster',
  'kubernetes-website/service/networking/dual-stack-ipv6-lb-svc.yaml:Service/my-service':
    'Error from server (BadRequest): Service in version "v1" cannot be handled as a Service: strict decoding error: unknown field "spec.ipFamily"',
  'kubernetes-website/service/networking/dual-stack-ipv6-svc.yaml:Service/my-service':
    'Error from server (BadRequest): Service in version "v1" cannot be handled as a Service: strict decoding error: unknown field "spec.ipFamily"',
  'kubernetes-website/service/networking/dual-stack-prefer-ipv6-lb-svc.yaml:Service/my-service':
    'The Service "my-service" is invalid: spec.ipFamilies[0]: Invalid value: "IPv6": not configured on this cluster',
  'kubernetes-website/service/networking/dual-stack-preferred-ipfamilies-svc.yaml:Service/my-service':
    'The Service "my-service" is invalid: spec.ipFamilies[0]: Invalid value: "IPv6": not configured on this cluster',
  'kubernetes-website/service/networking/example-ingress.yaml:Ingress/example-ingress':
    'Error from server (InternalError): Internal error occurred: failed calling webhook "validate.nginx.ingress.kubernetes.io": failed to call webhook: Post "https://ingress-nginx-controller-admission.ingress-nginx.svc:443/networking/v1/ingresses?timeout=10s": no endpoints available for service "ingress-nginx-controller-admission"',
  'kubernetes-website/service/networking/gateway.yaml:Gateway/example-gateway':
    'no matches for kind "Gateway" in version "gateway.networking.k8s.io/v1"',
  'kubernetes-website/service/networking/gatewayclass.yaml:GatewayClass/example-class':
    'no matches for kind "GatewayClass" in version "gateway.networking.k8s.io/v1"',
  'kubernetes-website/service/networking/grpcroute-matching.yaml:GRPCRoute/example-grpcroute':
    'no matches for kind "GRPCRoute" in version "gateway.networking.k8s.io/v1"',
  'kubernetes-website/service/networking/grpcroute.yaml:GRPCRoute/example-grpcroute':
    'no matches for kind "GRPCRoute" in version "gateway.networking.k8s.io/v1"',
  'kubernetes-website/service/networking/httproute.yaml:HTTPRoute/example-httproute':
    'no matches for kind "HTTPRoute" in version "gateway.networking.k8s.io/v1"',
  'kubernetes-website/service/networking/ingress-resource-backend.yaml:Ingress/ingress-resource-backend':
    'Error from server (InternalError): Internal error occurred: failed calling webhook "validate.nginx.ingress.kubernetes.io": failed to call webhook: Post "https://ingress-nginx-controller-admission.ingress-nginx.svc:443/networking/v1/ingresses?timeout=10s": no endpoints available for service "ingress-nginx-controller-admission"',
  'kubernetes-website/service/networking/ingress-wildcard-host.yaml:Ingress/ingress-wildcard-host':
    'Error from server (InternalError): Internal error occurred: failed calling webhook "validate.nginx.ingress.kubernetes.io": failed to call webhook: Post "https://ingress-nginx-controller-admission.ingress-nginx.svc:443/networking/v1/ingresses?timeout=10s": no endpoints available for service "ingress-nginx-controller-admission"',
  'kubernetes-website/service/networking/minimal-ingress.yaml:Ingress/minimal-ingress':
    'Error from server (InternalError): Internal error occurred: failed calling webhook "validate.nginx.ingress.kubernetes.io": failed to call webhook: Post "https://ingress-nginx-controller-admission.ingress-nginx.svc:443/networking/v1/ingresses?timeout=10s": no endpoints available for service "ingress-nginx-controller-admission"',
  'kubernetes-website/service/networking/name-virtual-host-ingress-no-third-host.yaml:Ingress/name-virtual-host-ingress-no-third-host':
    'Error from server (InternalError): Internal error occurred: failed calling webhook "validate.nginx.ingress.kubernetes.io": failed to call webhook: Post "https://ingress-nginx-controller-admission.ingress-nginx.svc:443/networking/v1/ingresses?timeout=10s": no endpoints available for service "ingress-nginx-controller-admission"',
  'kubernetes-website/service/networking/name-virtual-host-ingress.yaml:Ingress/name-virtual-host-ingress':
    'Error from server (InternalError): Internal error occurred: failed calling webhook "validate.nginx.ingress.kubernetes.io": failed to call webhook: Post "https://ingress-nginx-controller-admission.ingress-nginx.svc:443/networking/v1/ingresses?timeout=10s": no endpoints available for service "ingress-nginx-controller-admission"',
  'kubernetes-website/service/networking/simple-fanout-example.yaml:Ingress/simple-fanout-example':
    'Error from server (InternalError): Internal error occurred: failed calling webhook "validate.nginx.ingress.kubernetes.io": failed to call webhook: Post "https://ingress-nginx-controller-admission.ingress-nginx.svc:443/networking/v1/ingresses?timeout=10s": no endpoints available for service "ingress-nginx-controller-admission"',
  'kubernetes-website/service/networking/test-ingress.yaml:Ingress/test-ingress':
    'Error from server (InternalError): Internal error occurred: failed calling webhook "validate.nginx.ingress.kubernetes.io": failed to call webhook: Post "https://ingress-nginx-controller-admission.ingress-nginx.svc:443/networking/v1/ingresses?timeout=10s": no endpoints available for service "ingress-nginx-controller-admission"',
  'kubernetes-website/service/networking/tls-example-ingress.yaml:Ingress/tls-example-ingress':
    'Error from server (InternalError): Internal error occurred: failed calling webhook "validate.nginx.ingress.kubernetes.io": failed to call webhook: Post "https://ingress-nginx-controller-admission.ingress-nginx.svc:443/networking/v1/ingresses?timeout=10s": no endpoints available for service "ingress-nginx-controller-admission"',
  'kubernetes-website/storage/cr1.yaml:SelfieRequest/cr1':
    'no matches for kind "SelfieRequest" in version "stable.example.com/v1"',
  'kubernetes-website/storage/cr2.yaml:SelfieRequest/cr2':
    'no matches for kind "SelfieRequest" in version "stable.example.com/v2"',
  'kubernetes-website/storage/default-snapshot-class.yaml:VolumeSnapshotClass/default-snapclass':
    'no matches for kind "VolumeSnapshotClass" in version "snapshot.storage.k8s.io/v1alpha1"',
  'kubernetes-website/storage/migrate-crd.yaml:StorageVersionMigration/crdsvm':
    'no matches for kind "StorageVersionMigration" in version "storagemigration.k8s.io/v1alpha1"',
  'kubernetes-website/storage/snapshot.yaml:VolumeSnapshot/demo-snapshot-podpvc':
    'no matches for kind "VolumeSnapshot" in version "snapshot.storage.k8s.io/v1alpha1"',
  'kubernetes-website/storage/storage-version-migration-status.yaml:StorageVersionMigration/secrets-migration':
    'no matches for kind "StorageVersionMigration" in version "storagemigration.k8s.io/v1alpha1"',
  'kubernetes-website/storage/storage-version-migration-status02.yaml:StorageVersionMigration/crdsvm':
    'no matches for kind "StorageVersionMigration" in version "storagemigration.k8s.io/v1alpha1"',
  'kubernetes-website/storage/storage-version-migration.yaml:StorageVersionMigration/secrets-migration':
    'no matches for kind "StorageVersionMigration" in version "storagemigration.k8s.io/v1alpha1"',
  'kubernetes-website/storage/storageclass/storageclass-ceph-rbd.yaml:StorageClass/fast':
    'The StorageClass "fast" is invalid: * parameters: Forbidden: updates to parameters are forbidden. * provisioner: Forbidden: updates to provisioner are forbidden.',
  'kubernetes-website/storage/test-crd-v2.yaml:CustomResourceDefinition/selfierequests.stable.example.com':
    "The CustomResourceDefinition \"selfierequests.stable.example.com\" is invalid: * metadata.name: Invalid value: \"selfierequests.stable.example.com\": must be spec.names.plural+\".\"+spec.group * spec.names.plural: Invalid value: \"SelfieRequests\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name', or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?') * spec.names.singular: Invalid value: \"SelfieRequest\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name', or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
  'kubernetes-website/storage/test-crd.yaml:CustomResourceDefinition/selfierequests.stable.example.com':
    "The CustomResourceDefinition \"selfierequests.stable.example.com\" is invalid: * metadata.name: Invalid value: \"selfierequests.stable.example.com\": must be spec.names.plural+\".\"+spec.group * spec.names.plural: Invalid value: \"SelfieRequests\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name', or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?') * spec.names.singular: Invalid value: \"SelfieRequest\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name', or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
  'kubernetes-website/validatingadmissionpolicy/basic-example-binding.yaml:ValidatingAdmissionPolicyBinding/demo-binding-test.example.com':
    'no matches for kind "ValidatingAdmissionPolicyBinding" in version "admissionregistration.k8s.io/v1alpha1"',
  'kubernetes-website/validatingadmissionpolicy/binding-with-param-prod.yaml:ValidatingAdmissionPolicyBinding/replicalimit-binding-nontest':
    'The ValidatingAdmissionPolicyBinding "replicalimit-binding-nontest" is invalid: spec.paramRef.parameterNotFoundAction: Required value',
  'kubernetes-website/validatingadmissionpolicy/failure-policy-ignore.yaml#0':
    'resource name may not be empty',
  'kubernetes-website/validatingadmissionpolicy/failure-policy-ignore.yaml#1':
    'resource name may not be empty',
  'kubernetes-website/validatingadmissionpolicy/replicalimit-param-prod.yaml:ReplicaLimit/replica-limit-prod.example.com':
    'no matches for kind "ReplicaLimit" in version "rules.example.com/v1"',
  'kubernetes-website/validatingadmissionpolicy/replicalimit-param.yaml:ReplicaLimit/replica-limit-test.example.com':
    'no matches for kind "ReplicaLimit" in version "rules.example.com/v1"',
  'kubernetes-website/validatingadmissionpolicy/typechecking.yaml:ValidatingAdmissionPolicy/deploy-replica-policy.example.com':
    'no matches for kind "ValidatingAdmissionPolicy" in version "admissionregistration.k8s.io/v1beta1"',
  'metrics-server/deployment.yaml:Deployment/metrics-server':
    'The Deployment "metrics-server" is invalid: * spec.selector: Required value * spec.template.metadata.labels: Invalid value: map[string]string(nil): `selector` does not match template `labels`',
  'metrics-server/pdb.yaml:PodDisruptionBudget/metrics-server':
    'no matches for kind "PodDisruptionBudget" in version "policy/v1beta1"',
}
