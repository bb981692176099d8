/** discovery.LabelServiceName: the service a slice belongs to. */
export const serviceNameLabel = 'kubernetes.io/service-name'

/** discovery.LabelManagedBy, and this controller's value for it. */
export const managedByLabel = 'endpointslice.kubernetes.io/managed-by'
export const controllerName = 'endpointslice-controller.k8s.io'

/** The most endpoints one slice carries (kube-controller-manager's --max-endpoints-per-slice default). */
export const maxEndpointsPerSlice = 100
