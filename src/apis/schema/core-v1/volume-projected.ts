/**
 * The core/v1 volume sources projected from API objects: secret, configMap, downwardAPI and
 * projected.
 */
import type { SchemaSet } from '../../../apimachinery/schema-types'
import { CORE, bool, group, int, listOf, required, str, struct } from '../dsl'
import { c, labels, m } from './shorthands'

export const coreV1ProjectedVolumes: SchemaSet = group(CORE, {
  SecretVolumeSource: struct({
    secretName: str("secretName is the name of the secret in the pod's namespace to use."),
    items: listOf(
      c('KeyToPath'),
      'items If unspecified, each key-value pair in the Data field of the referenced Secret will be projected into the volume as a file whose name is the key and content is the value.',
    ),
    defaultMode: int(
      'defaultMode is Optional: mode bits used to set permissions on created files by default. Defaults to 0644.',
    ),
    optional: bool('optional field specify whether the Secret or its keys must be defined'),
  }),
  KeyToPath: struct({
    key: required(str('key is the key to project.')),
    path: required(str('path is the relative path of the file to map the key to.')),
    mode: int('mode is Optional: mode bits used to set permissions on this file.'),
  }),
  DownwardAPIVolumeSource: struct({
    items: listOf(c('DownwardAPIVolumeFile'), 'Items is a list of downward API volume file'),
    defaultMode: int('Optional: mode bits to use on created files by default. Defaults to 0644.'),
  }),
  DownwardAPIVolumeFile: struct({
    path: required(
      str(
        "Required: Path is  the relative path name of the file to be created. Must not be absolute or contain the '..' path.",
      ),
    ),
    fieldRef: c(
      'ObjectFieldSelector',
      'Required: Selects a field of the pod: only annotations, labels, name, namespace and uid are supported.',
    ),
    resourceFieldRef: c(
      'ResourceFieldSelector',
      'Selects a resource of the container: only resources limits and requests are currently supported.',
    ),
    mode: int('Optional: mode bits used to set permissions on this file.'),
  }),
  ConfigMapVolumeSource: struct({
    name: str('Name of the referent.'),
    items: listOf(
      c('KeyToPath'),
      'items if unspecified, each key-value pair in the Data field of the referenced ConfigMap will be projected into the volume as a file whose name is the key and content is the value.',
    ),
    defaultMode: int(
      'defaultMode is optional: mode bits used to set permissions on created files by default. Defaults to 0644.',
    ),
    optional: bool('optional specify whether the ConfigMap or its keys must be defined'),
  }),
  ProjectedVolumeSource: struct({
    sources: listOf(
      c('VolumeProjection'),
      'sources is the list of volume projections. Each entry in this list handles one source.',
    ),
    defaultMode: int(
      'defaultMode are the mode bits used to set permissions on created files by default.',
    ),
  }),
  VolumeProjection: struct({
    secret: c('SecretProjection', 'secret information about the secret data to project'),
    downwardAPI: c(
      'DownwardAPIProjection',
      'downwardAPI information about the downwardAPI data to project',
    ),
    configMap: c(
      'ConfigMapProjection',
      'configMap information about the configMap data to project',
    ),
    serviceAccountToken: c(
      'ServiceAccountTokenProjection',
      'serviceAccountToken is information about the serviceAccountToken data to project',
    ),
    clusterTrustBundle: c(
      'ClusterTrustBundleProjection',
      'ClusterTrustBundle allows a pod to access the `.spec.trustBundle` field of ClusterTrustBundle objects in an auto-updating file.',
    ),
  }),
  SecretProjection: struct({
    name: str('Name of the referent.'),
    items: listOf(
      c('KeyToPath'),
      'items if unspecified, each key-value pair in the Data field of the referenced Secret will be projected into the volume.',
    ),
    optional: bool('optional field specify whether the Secret or its key must be defined'),
  }),
  ConfigMapProjection: struct({
    name: str('Name of the referent.'),
    items: listOf(
      c('KeyToPath'),
      'items if unspecified, each key-value pair in the Data field of the referenced ConfigMap will be projected into the volume.',
    ),
    optional: bool('optional specify whether the ConfigMap or its keys must be defined'),
  }),
  DownwardAPIProjection: struct({
    items: listOf(c('DownwardAPIVolumeFile'), 'Items is a list of DownwardAPIVolume file'),
  }),
  ServiceAccountTokenProjection: struct({
    audience: str('audience is the intended audience of the token.'),
    expirationSeconds: int(
      'expirationSeconds is the requested duration of validity of the service account token. Defaults to 1 hour.',
    ),
    path: required(
      str('path is the path relative to the mount point of the file to project the token into.'),
    ),
  }),
  ClusterTrustBundleProjection: struct({
    name: str('Select a single ClusterTrustBundle by object name.'),
    signerName: str('Select all ClusterTrustBundles that match this signer name.'),
    labelSelector: m(
      'LabelSelector',
      'Select all ClusterTrustBundles that match this label selector.',
    ),
    optional: bool(
      "If true, don't block pod startup if the referenced ClusterTrustBundle(s) aren't available.",
    ),
    path: required(str('Relative path from the volume root to write the bundle.')),
  }),
})
