/**
 * Structural schema of storage.k8s.io/v1 StorageClass and CSIDriver (k8s.io/api/storage/v1) as of
 * Kubernetes v1.32, and core/v1's TopologySelectorTerm that a StorageClass embeds.
 */
import type { SchemaSet } from '../../apimachinery/schema-types'
import {
  CORE,
  bool,
  enumOf,
  group,
  int,
  kind,
  listOf,
  mapOf,
  ref,
  required,
  str,
  struct,
  typeMeta,
} from './dsl'

export const STORAGE = 'io.k8s.api.storage.v1.'

const s = (name: string, description?: string) => ref(STORAGE + name, description)
const c = (name: string, description?: string) => ref(CORE + name, description)

const storageV1Kinds = group(STORAGE, {
  StorageClass: struct(
    {
      ...typeMeta(),
      metadata: ref(
        'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
        "Standard object's metadata.",
      ),
      provisioner: required(str('provisioner indicates the type of the provisioner.')),
      parameters: mapOf(
        str(),
        'parameters holds the parameters for the provisioner that should create volumes of this storage class.',
      ),
      reclaimPolicy: enumOf(
        ['Delete', 'Recycle', 'Retain'],
        'reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this storage class. Defaults to Delete.',
      ),
      mountOptions: listOf(
        str(),
        'mountOptions controls the mountOptions for dynamically provisioned PersistentVolumes of this storage class.',
      ),
      allowVolumeExpansion: bool(
        'allowVolumeExpansion shows whether the storage class allow volume expand.',
      ),
      volumeBindingMode: enumOf(
        ['Immediate', 'WaitForFirstConsumer'],
        'volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound. When unset, VolumeBindingImmediate is used.',
      ),
      allowedTopologies: listOf(
        c('TopologySelectorTerm'),
        'allowedTopologies restrict the node topologies where volumes can be dynamically provisioned.',
      ),
    },
    'StorageClass describes the parameters for a class of storage for which PersistentVolumes can be dynamically provisioned. StorageClasses are non-namespaced; the name of the storage class according to etcd is in ObjectMeta.Name.',
  ),
  CSIDriver: kind(
    'CSIDriver captures information about a Container Storage Interface (CSI) volume driver deployed on the cluster.',
    { spec: required(s('CSIDriverSpec', 'spec represents the specification of the CSI Driver.')) },
  ),
  CSIDriverSpec: struct({
    attachRequired: bool(
      'attachRequired indicates this CSI volume driver requires an attach operation.',
    ),
    podInfoOnMount: bool(
      'podInfoOnMount indicates this CSI volume driver requires additional pod information (like podName, podUID, etc.) during mount operations.',
    ),
    volumeLifecycleModes: listOf(str(), {
      listType: 'set',
      description:
        'volumeLifecycleModes defines what kind of volumes this CSI volume driver supports.',
    }),
    storageCapacity: bool(
      'storageCapacity indicates that the CSI volume driver wants pod scheduling to consider the storage capacity that the driver deployment will report.',
    ),
    fsGroupPolicy: enumOf(
      ['None', 'File', 'ReadWriteOnceWithFSType'],
      'fsGroupPolicy defines if the underlying volume supports changing ownership and permission of the volume before being mounted.',
    ),
    tokenRequests: listOf(s('TokenRequest'), {
      listType: 'atomic',
      description:
        "tokenRequests indicates the CSI driver needs pods' service account tokens it is mounting volume for to do necessary authentication.",
    }),
    requiresRepublish: bool(
      'requiresRepublish indicates the CSI driver wants `NodePublishVolume` being periodically called to reflect any possible change in the mounted volume.',
    ),
    seLinuxMount: bool(
      'seLinuxMount specifies if the CSI driver supports "-o context" mount option.',
    ),
  }),
  TokenRequest: struct({
    audience: required(
      str('audience is the intended audience of the token in "TokenRequestSpec".'),
    ),
    expirationSeconds: int(
      'expirationSeconds is the duration of validity of the token in "TokenRequestSpec".',
    ),
  }),
})

const topology = group(CORE, {
  TopologySelectorTerm: struct({
    matchLabelExpressions: listOf(
      c('TopologySelectorLabelRequirement'),
      'A list of topology selector requirements by labels.',
    ),
  }),
  TopologySelectorLabelRequirement: struct({
    key: required(str('The label key that the selector applies to.')),
    values: required(
      listOf(str(), 'An array of string values. One value must match the label to be selected.'),
    ),
  }),
})

export const storageV1: SchemaSet = { ...storageV1Kinds, ...topology }
