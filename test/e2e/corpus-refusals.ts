// The corpus documents that are refused, each with kubectl's error for it (file path and test namespace left out).
// Written by `EDGEPLANE_CORPUS_RECORD=1 npx vitest run --config test/vitest.config.ts test/e2e/corpus.test.ts`.
export const acceptedFloor = 183
export const refusals: Record<string, string> = {
  "kubernetes-website/access/deployment-replicas-policy.yaml:ValidatingAdmissionPolicy/deploy-replica-policy.example.com":
    "no matches for kind \"ValidatingAdmissionPolicy\" in version \"admissionregistration.k8s.io/v1alpha1\"",
  "kubernetes-website/access/validating-webhook-configuration-match-conditions.yaml#0":
    "resource name may not be empty",
  "kubernetes-website/application/job/cronjob.yaml:CronJob/hello":
    "no matches for kind \"CronJob\" in version \"batch/v1beta1\"",
  "kubernetes-website/pods/pod-with-node-affinity.yaml:Pod/with-node-affinity":
    "Error from server (BadRequest): Pod in version \"v1\" cannot be handled as a Pod: json: cannot unmarshal array into Go struct field NodeAffinity.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution of type v1.NodeSelector",
  "kubernetes-website/policy/high-priority-pod.yaml:Pod/high-priority":
    "Error from server (Forbidden): pods \"high-priority\" is forbidden: no PriorityClass with name high was found",
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
  "metrics-server/deployment.yaml:Deployment/metrics-server":
    "The Deployment \"metrics-server\" is invalid: * spec.selector: Required value * spec.template.metadata.labels: Invalid value: map[string]string(nil): `selector` does not match template `labels`",
  "metrics-server/pdb.yaml:PodDisruptionBudget/metrics-server":
    "no matches for kind \"PodDisruptionBudget\" in version \"policy/v1beta1\"",
}
