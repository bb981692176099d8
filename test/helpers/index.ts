/**
 * What tests of every project share: waiting, object builders and action descriptions. Nothing
 * here uses Node's APIs, so unit, workers (inside workerd) and end-to-end tests all import it.
 */
export { waitFor, sleep, type WaitOptions } from './wait'
export {
  res,
  T0,
  defOfObject,
  newObject,
  ownerRef,
  newNode,
  newLease,
  newReplicaSet,
  newDeployment,
  type ObjectFixture,
  type NodeFixture,
  type ReplicaSetFixture,
  type DeploymentFixture,
} from './objects'
export { newPod, podManifest, type PodFixture, type PodManifestFixture } from './pods'
export {
  namespace,
  configMap,
  deployment,
  stream,
  type Manifest,
  type ContainerSpec,
} from './manifests'
export { describeAction, briefAction } from './actions'
