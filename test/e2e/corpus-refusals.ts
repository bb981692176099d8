// The corpus documents that are refused, each with kubectl's error for it (file path and test namespace left out).
// Written by `EDGEPLANE_CORPUS_RECORD=1 npx vitest run --config test/vitest.config.ts test/e2e/corpus.test.ts`.
export const acceptedFloor = 160
export const refusals: Record<string, string> = {
  "argo-cd/namespace-install.yaml:NetworkPolicy/argocd-application-controller-network-policy":
    "no matches for kind \"NetworkPolicy\" in version \"networking.k8s.io/v1\"",
  "argo-cd/namespace-install.yaml:NetworkPolicy/argocd-applicationset-controller-network-policy":
    "no matches for kind \"NetworkPolicy\" in version \"networking.k8s.io/v1\"",
  "argo-cd/namespace-install.yaml:NetworkPolicy/argocd-dex-server-network-policy":
    "no matches for kind \"NetworkPolicy\" in version \"networking.k8s.io/v1\"",
  "argo-cd/namespace-install.yaml:NetworkPolicy/argocd-notifications-controller-network-policy":
    "no matches for kind \"NetworkPolicy\" in version \"networking.k8s.io/v1\"",
  "argo-cd/namespace-install.yaml:NetworkPolicy/argocd-redis-network-policy":
    "no matches for kind \"NetworkPolicy\" in version \"networking.k8s.io/v1\"",
  "argo-cd/namespace-install.yaml:NetworkPolicy/argocd-repo-server-network-policy":
    "no matches for kind \"NetworkPolicy\" in version \"networking.k8s.io/v1\"",
  "argo-cd/namespace-install.yaml:NetworkPolicy/argocd-server-network-policy":
    "no matches for kind \"NetworkPolicy\" in version \"networking.k8s.io/v1\"",
  "kubernetes-website/access/deployment-replicas-policy.yaml:ValidatingAdmissionPolicy/deploy-replica-policy.example.com":
    "no matches for kind \"ValidatingAdmissionPolicy\" in version \"admissionregistration.k8s.io/v1alpha1\"",
  "kubernetes-website/access/validating-webhook-configuration-match-conditions.yaml#0":
    "resource name may not be empty",
  "kubernetes-website/admin/resource/cpu-constraints.yaml:LimitRange/cpu-min-max-demo-lr":
    "no matches for kind \"LimitRange\" in version \"v1\"",
  "kubernetes-website/admin/resource/memory-defaults.yaml:LimitRange/mem-limit-range":
    "no matches for kind \"LimitRange\" in version \"v1\"",
  "kubernetes-website/admin/resource/quota-mem-cpu.yaml:ResourceQuota/mem-cpu-demo":
    "no matches for kind \"ResourceQuota\" in version \"v1\"",
  "kubernetes-website/admin/resource/quota-objects.yaml:ResourceQuota/object-quota-demo":
    "no matches for kind \"ResourceQuota\" in version \"v1\"",
  "kubernetes-website/application/cassandra/cassandra-statefulset.yaml:StorageClass/fast":
    "no matches for kind \"StorageClass\" in version \"storage.k8s.io/v1\"",
  "kubernetes-website/application/job/cronjob.yaml:CronJob/hello":
    "no matches for kind \"CronJob\" in version \"batch/v1beta1\"",
  "kubernetes-website/application/mysql/mysql-pv.yaml:PersistentVolume/mysql-pv-volume":
    "no matches for kind \"PersistentVolume\" in version \"v1\"",
  "kubernetes-website/application/zookeeper/zookeeper.yaml:PodDisruptionBudget/zk-pdb":
    "no matches for kind \"PodDisruptionBudget\" in version \"policy/v1\"",
  "kubernetes-website/controllers/hpa-rs.yaml:HorizontalPodAutoscaler/frontend-scaler":
    "no matches for kind \"HorizontalPodAutoscaler\" in version \"autoscaling/v1\"",
  "kubernetes-website/controllers/replication.yaml:ReplicationController/nginx":
    "no matches for kind \"ReplicationController\" in version \"v1\"",
  "kubernetes-website/pods/pod-with-node-affinity.yaml:Pod/with-node-affinity":
    "Error from server (BadRequest): Pod in version \"v1\" cannot be handled as a Pod: json: cannot unmarshal array into Go struct field NodeAffinity.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution of type v1.NodeSelector",
  "kubernetes-website/pods/storage/pv-volume.yaml:PersistentVolume/task-pv-volume":
    "no matches for kind \"PersistentVolume\" in version \"v1\"",
  "kubernetes-website/policy/quota.yaml:ResourceQuota/pods-high":
    "unable to recognize no matches for kind \"ResourceQuota\" in version \"v1\"",
  "kubernetes-website/policy/quota.yaml:ResourceQuota/pods-low":
    "unable to recognize no matches for kind \"ResourceQuota\" in version \"v1\"",
  "kubernetes-website/policy/quota.yaml:ResourceQuota/pods-medium":
    "unable to recognize no matches for kind \"ResourceQuota\" in version \"v1\"",
  "kubernetes-website/policy/zookeeper-pod-disruption-budget-minavailable.yaml:PodDisruptionBudget/zk-pdb":
    "no matches for kind \"PodDisruptionBudget\" in version \"policy/v1\"",
  "kubernetes-website/priority-and-fairness/health-for-strangers.yaml:FlowSchema/health-for-strangers":
    "no matches for kind \"FlowSchema\" in version \"flowcontrol.apiserver.k8s.io/v1beta2\"",
  "kubernetes-website/secret/serviceaccount/mysecretname.yaml:Secret/mysecretname":
    "unable to decode \"FILE\": json: cannot unmarshal array into Go struct field ObjectMeta.metadata.annotations of type map[string]string",
  "kubernetes-website/secret/tls-auth-secret.yaml:Secret/secret-tls":
    "Error from server (BadRequest): Secret in version \"v1\" cannot be handled as a Secret: illegal base64 data at input byte 7",
  "kubernetes-website/service/networking/dual-stack-ipv6-svc.yaml:Service/my-service":
    "Error from server (BadRequest): Service in version \"v1\" cannot be handled as a Service: strict decoding error: unknown field \"spec.ipFamily\"",
  "kubernetes-website/service/networking/gatewayclass.yaml:GatewayClass/example-class":
    "no matches for kind \"GatewayClass\" in version \"gateway.networking.k8s.io/v1\"",
  "kubernetes-website/service/networking/minimal-ingress.yaml:Ingress/minimal-ingress":
    "Error from server (InternalError): Internal error occurred: failed calling webhook \"validate.nginx.ingress.kubernetes.io\": failed to call webhook: Post \"https://ingress-nginx-controller-admission.ingress-nginx.svc:443/networking/v1/ingresses?timeout=10s\": no endpoints available for service \"ingress-nginx-controller-admission\"",
  "kubernetes-website/service/networking/networkpolicy.yaml:NetworkPolicy/test-network-policy":
    "no matches for kind \"NetworkPolicy\" in version \"networking.k8s.io/v1\"",
  "metrics-server/apiservice.yaml:APIService/v1beta1.metrics.k8s.io":
    "no matches for kind \"APIService\" in version \"apiregistration.k8s.io/v1\"",
  "metrics-server/deployment.yaml:Deployment/metrics-server":
    "The Deployment \"metrics-server\" is invalid: * spec.selector: Required value * spec.template.metadata.labels: Invalid value: map[string]string(nil): `selector` does not match template `labels`",
  "metrics-server/pdb.yaml:PodDisruptionBudget/metrics-server":
    "no matches for kind \"PodDisruptionBudget\" in version \"policy/v1beta1\"",
}
