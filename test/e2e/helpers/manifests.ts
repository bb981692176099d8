/** The end-to-end tests' way to the shared manifest builders (test/helpers/manifests.ts and pods.ts). */
export {
  namespace,
  configMap,
  deployment,
  stream,
  type Manifest,
  type ContainerSpec,
} from '../../helpers/manifests'
export { podManifest } from '../../helpers/pods'
