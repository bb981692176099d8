/**
 * Structural schema of meta/v1 (k8s.io/apimachinery/pkg/apis/meta/v1) types embedded by every
 * served kind. metav1.Time and metav1.MicroTime are the scalar 'time'.
 */
import type { SchemaSet } from '../../apimachinery/schema-types'
import {
  META,
  any,
  bool,
  enumOf,
  group,
  int,
  listOf,
  mapOf,
  ref,
  required,
  str,
  struct,
  time,
  typeMeta,
} from './dsl'

const m = (name: string, description?: string) => ref(META + name, description)

export const metaV1: SchemaSet = group(META, {
  ObjectMeta: struct(
    {
      name: str(
        'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Cannot be updated.',
      ),
      generateName: str(
        'An optional prefix used by the server to generate a unique name only if the name field has not been provided.',
      ),
      namespace: str(
        'Namespace defines the space within which each name must be unique. An empty namespace is equivalent to the "default" namespace.',
      ),
      selfLink: str(
        'Deprecated: selfLink is a legacy read-only field that is no longer populated by the system.',
      ),
      uid: str(
        'UID is the unique in time and space value for this object. Populated by the system. Read-only.',
      ),
      resourceVersion: str(
        'An opaque value that represents the internal version of this object that can be used by clients to determine when objects have changed.',
      ),
      generation: int(
        'A sequence number representing a specific generation of the desired state. Populated by the system. Read-only.',
      ),
      creationTimestamp: time(
        'CreationTimestamp is a timestamp representing the server time when this object was created.',
      ),
      deletionTimestamp: time(
        'DeletionTimestamp is RFC 3339 date and time at which this resource will be deleted. Set by the server when a graceful deletion is requested.',
      ),
      deletionGracePeriodSeconds: int(
        'Number of seconds allowed for this object to gracefully terminate before it will be removed from the system.',
      ),
      labels: mapOf(
        str(),
        'Map of string keys and values that can be used to organize and categorize (scope and select) objects.',
      ),
      annotations: mapOf(
        str(),
        'Annotations is an unstructured key value map stored with a resource that may be set by external tools to store and retrieve arbitrary metadata.',
      ),
      ownerReferences: listOf(m('OwnerReference'), {
        mergeKey: 'uid',
        description:
          'List of objects depended by this object. If ALL objects in the list have been deleted, this object will be garbage collected.',
      }),
      finalizers: listOf(str(), {
        strategy: 'merge',
        description:
          'Must be empty before the object is deleted from the registry. Each entry is an identifier for the responsible component that will remove the entry from the list.',
      }),
      managedFields: listOf(
        m('ManagedFieldsEntry'),
        'ManagedFields maps workflow-id and version to the set of fields that are managed by that workflow.',
      ),
    },
    'ObjectMeta is metadata that all persisted resources must have, which includes all objects users must create.',
  ),
  OwnerReference: struct(
    {
      apiVersion: required(str('API version of the referent.')),
      kind: required(str('Kind of the referent.')),
      name: required(str('Name of the referent.')),
      uid: required(str('UID of the referent.')),
      controller: bool('If true, this reference points to the managing controller.'),
      blockOwnerDeletion: bool(
        'If true, AND if the owner has the "foregroundDeletion" finalizer, then the owner cannot be deleted from the key-value store until this reference is removed.',
      ),
    },
    'OwnerReference contains enough information to let you identify an owning object.',
  ),
  ManagedFieldsEntry: struct(
    {
      manager: str('Manager is an identifier of the workflow managing these fields.'),
      operation: enumOf(
        ['Apply', 'Update'],
        'Operation is the type of operation which lead to this ManagedFieldsEntry being created.',
      ),
      apiVersion: str(
        'APIVersion defines the version of this resource that this field set applies to.',
      ),
      time: time('Time is the timestamp of when the ManagedFields entry was added.'),
      fieldsType: str(
        'FieldsType is the discriminator for the different fields format and version. There is currently only one possible value: "FieldsV1".',
      ),
      fieldsV1: any(
        'FieldsV1 holds the first JSON version format as described in the "FieldsV1" type.',
      ),
      subresource: str(
        'Subresource is the name of the subresource used to update that object, or empty string if the object was updated through the main resource.',
      ),
    },
    'ManagedFieldsEntry is a workflow-id, a FieldSet and the group version of the resource that the fieldset applies to.',
  ),
  LabelSelector: struct(
    {
      matchLabels: mapOf(str(), 'matchLabels is a map of {key,value} pairs.'),
      matchExpressions: listOf(
        m('LabelSelectorRequirement'),
        'matchExpressions is a list of label selector requirements. The requirements are ANDed.',
      ),
    },
    'A label selector is a label query over a set of resources. An empty label selector matches all objects. A null label selector matches no objects.',
  ),
  LabelSelectorRequirement: struct(
    {
      key: required(str('key is the label key that the selector applies to.')),
      operator: required(
        enumOf(
          ['In', 'NotIn', 'Exists', 'DoesNotExist'],
          "operator represents a key's relationship to a set of values.",
        ),
      ),
      values: listOf(str(), 'values is an array of string values.'),
    },
    'A label selector requirement is a selector that contains values, a key, and an operator that relates the key and values.',
  ),
  Condition: struct(
    {
      type: required(str('type of condition in CamelCase or in foo.example.com/CamelCase.')),
      status: required(
        enumOf(
          ['True', 'False', 'Unknown'],
          'status of the condition, one of True, False, Unknown.',
        ),
      ),
      observedGeneration: int(
        'observedGeneration represents the .metadata.generation that the condition was set based upon.',
      ),
      lastTransitionTime: required(
        time(
          'lastTransitionTime is the last time the condition transitioned from one status to another.',
        ),
      ),
      reason: required(
        str(
          "reason contains a programmatic identifier indicating the reason for the condition's last transition.",
        ),
      ),
      message: required(
        str('message is a human readable message indicating details about the transition.'),
      ),
    },
    'Condition contains details for one aspect of the current state of this API Resource.',
  ),
  ListMeta: struct(
    {
      selfLink: str(
        'Deprecated: selfLink is a legacy read-only field that is no longer populated by the system.',
      ),
      resourceVersion: str(
        "String that identifies the server's internal version of this object that can be used by clients to determine when objects have changed.",
      ),
      continue: str(
        'continue may be set if the user set a limit on the number of items returned, and indicates that the server has more data available.',
      ),
      remainingItemCount: int(
        'remainingItemCount is the number of subsequent items in the list which are not included in this list response.',
      ),
    },
    'ListMeta describes metadata that synthetic resources must have, including lists and various status objects.',
  ),
  DeleteOptions: struct(
    {
      ...typeMeta(),
      gracePeriodSeconds: int(
        'The duration in seconds before the object should be deleted. Zero means delete immediately.',
      ),
      preconditions: m(
        'Preconditions',
        'Must be fulfilled before a deletion is carried out. If not possible, a 409 Conflict status will be returned.',
      ),
      orphanDependents: bool(
        'Deprecated: please use the PropagationPolicy, this field will be deprecated in 1.7.',
      ),
      propagationPolicy: enumOf(
        ['Orphan', 'Background', 'Foreground'],
        'Whether and how garbage collection will be performed.',
      ),
      dryRun: listOf(
        str(),
        'When present, indicates that modifications should not be persisted. Valid value: "All".',
      ),
      ignoreStoreReadErrorWithClusterBreakingPotential: bool(
        'if set to true, it will trigger an unsafe deletion of the resource in case the normal deletion flow fails with a corrupt object error.',
      ),
    },
    'DeleteOptions may be provided when deleting an API object.',
  ),
  Preconditions: struct(
    {
      uid: str('Specifies the target UID.'),
      resourceVersion: str('Specifies the target ResourceVersion'),
    },
    'Preconditions must be fulfilled before an operation (update, delete, etc.) is carried out.',
  ),
})
