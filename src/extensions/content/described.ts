import type { ContentPart } from '../../core/parts.js';
import type { ImageDescriber } from '../../runner/run-setup.js';
import { errorMessage } from '../../errors/error-message.js';

/** Descriptions already made, by describer and image: a conversation's image is described once per page, not once per turn. */
const made = new WeakMap<ImageDescriber, WeakMap<Blob, Promise<string>>>();

/** An image as the text a model without eyes reads in its place: `[image: <what the app's describer says>]`. */
export async function describedImage(describe: ImageDescriber, part: ContentPart, signal: AbortSignal): Promise<string> {
  const image = part.type === 'image' ? part.image : part.type === 'file' ? part.data : '';
  if (typeof image !== 'string' && !(image instanceof Blob)) return '[image]';
  const mediaType = part.type === 'text' ? undefined : part.mediaType;
  const given: Parameters<ImageDescriber>[0] = { image, ...(mediaType ? { mediaType } : {}) };
  let byImage = made.get(describe);
  if (!byImage) made.set(describe, (byImage = new WeakMap()));
  let description = typeof image === 'string' ? undefined : byImage.get(image);
  if (!description) {
    description = Promise.resolve(describe(given, { signal })).then((text) => String(text));
    // A failure is not kept: the next turn asks again.
    if (typeof image !== 'string') byImage.set(image, description.catch(forget(byImage, image)));
  }
  try {
    return `[image: ${(await description).trim()}]`;
  } catch (error) {
    return `[image: not described (${errorMessage(error).slice(0, 200)})]`;
  }
}

function forget(byImage: WeakMap<Blob, Promise<string>>, image: Blob) {
  return (error: unknown): never => {
    byImage.delete(image);
    throw error;
  };
}
