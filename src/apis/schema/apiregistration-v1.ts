/**
 * Structural schema of apiregistration.k8s.io/v1 APIService (k8s.io/kube-aggregator
 * pkg/apis/apiregistration/v1) as of Kubernetes v1.32.
 */
import type { SchemaSet } from '../../apimachinery/schema-types'
import { bool, bytes, group, int, kind, listOf, ref, required, str, struct, time } from './dsl'

export const APIREGISTRATION = 'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.'

export const apiregistrationV1: SchemaSet = group(APIREGISTRATION, {
  APIService: kind(
    'APIService represents a server for a particular GroupVersion. Name must be "version.group".',
    {
      spec: ref(
        APIREGISTRATION + 'APIServiceSpec',
        'Spec contains information for locating and communicating with a server',
      ),
      status: ref(
        APIREGISTRATION + 'APIServiceStatus',
        'Status contains derived information about an API server',
      ),
    },
  ),
  APIServiceSpec: struct(
    {
      service: ref(
        APIREGISTRATION + 'ServiceReference',
        'Service is a reference to the service for this API server.  It must communicate on port 443. If the Service is nil, that means the handling for the API groupversion is handled locally on this server. The call will simply delegate to the normal handler chain to be fulfilled.',
      ),
      group: str('Group is the API group name this server hosts'),
      version: str('Version is the API version this server hosts.  For example, "v1"'),
      insecureSkipTLSVerify: bool(
        'InsecureSkipTLSVerify disables TLS certificate verification when communicating with this server. This is strongly discouraged.  You should use the CABundle instead.',
      ),
      caBundle: bytes(
        "CABundle is a PEM encoded CA bundle which will be used to validate an API server's serving certificate. If unspecified, system trust roots on the apiserver are used.",
      ),
      groupPriorityMinimum: required(
        int(
          'GroupPriorityMinimum is the priority this group should have at least. Higher priority means that the group is preferred by clients over lower priority ones. Note that other versions of this group might specify even higher GroupPriorityMinimum values such that the whole group gets a higher priority.',
        ),
      ),
      versionPriority: required(
        int(
          'VersionPriority controls the ordering of this API version inside of its group.  Must be greater than zero.',
        ),
      ),
    },
    'APIServiceSpec contains information for locating and communicating with a server. Only https is supported, though you are able to disable certificate verification.',
  ),
  ServiceReference: struct(
    {
      namespace: str('Namespace is the namespace of the service'),
      name: str('Name is the name of the service'),
      port: int(
        'If specified, the port on the service that hosting webhook. Default to 443 for backward compatibility. `port` should be a valid port number (1-65535, inclusive).',
      ),
    },
    'ServiceReference holds a reference to Service.legacy.k8s.io',
  ),
  APIServiceStatus: struct(
    {
      conditions: listOf(ref(APIREGISTRATION + 'APIServiceCondition'), {
        listType: 'map',
        mapKeys: ['type'],
        description: 'Current service state of apiService.',
      }),
    },
    'APIServiceStatus contains derived information about an API server',
  ),
  APIServiceCondition: struct(
    {
      type: required(str('Type is the type of the condition.')),
      status: required(str('Status is the status of the condition. Can be True, False, Unknown.')),
      lastTransitionTime: time('Last time the condition transitioned from one status to another.'),
      reason: str("Unique, one-word, CamelCase reason for the condition's last transition."),
      message: str('Human-readable message indicating details about last transition.'),
    },
    'APIServiceCondition describes the state of an APIService at a particular point',
  ),
})
