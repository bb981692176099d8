/**
 * Images by imagePullPolicy, with the kubelet's waiting reasons for what goes wrong, and the
 * node's image list as the kubelet reports it in `status.images`.
 */
import type Docker from 'dockerode'
import { engineMessage, imageId, pullImage } from './engine'

/** Why an image is not there to run: the container waits with this reason and message. */
export class ImageError extends Error {
  constructor(
    readonly reason: 'ErrImagePull' | 'ErrImageNeverPull' | 'InvalidImageName',
    message: string,
  ) {
    super(message)
  }
}

/**
 * Makes the image present as the policy says and returns its id: Never uses only a local image,
 * IfNotPresent pulls when missing, Always pulls every time (a failed pull fails the start).
 */
export async function ensureImage(
  docker: Docker,
  image: string,
  policy: string,
  onPull?: (image: string) => void,
): Promise<string> {
  if (!image || /\s/.test(image))
    throw new ImageError(
      'InvalidImageName',
      `Failed to apply default image tag "${image}": couldn't parse image name "${image}": invalid reference format`,
    )
  const present = await imageId(docker, image)
  if (policy === 'Never') {
    if (present) return present
    throw new ImageError(
      'ErrImageNeverPull',
      `Container image "${image}" is not present with pull policy of Never`,
    )
  }
  if (present && policy !== 'Always') return present
  onPull?.(image)
  try {
    await pullImage(docker, image)
  } catch (err) {
    throw new ImageError(
      'ErrImagePull',
      `failed to pull and unpack image "${image}": ${engineMessage(err)}`,
    )
  }
  const id = await imageId(docker, image)
  if (!id) throw new ImageError('ErrImagePull', `image "${image}" is not present after pulling it`)
  return id
}

/** kubelet's nodeStatusMaxImages: the largest images first, at most 50. */
export const MAX_NODE_IMAGES = 50

/** The node's images for `status.images`: names (tags and digests), largest first, capped. */
export async function nodeImages(
  docker: Docker,
  max = MAX_NODE_IMAGES,
): Promise<{ names: string[]; sizeBytes: number }[]> {
  const images = await docker.listImages()
  return images
    .map((i) => ({
      names: [...(i.RepoDigests ?? []), ...(i.RepoTags ?? [])].filter(
        (n) => n && !n.includes('<none>'),
      ),
      sizeBytes: i.Size,
    }))
    .filter((i) => i.names.length > 0)
    .sort((a, b) => b.sizeBytes - a.sizeBytes)
    .slice(0, max)
}
