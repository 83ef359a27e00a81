import type { ContentPart, PartKinds } from '../../core/parts.js';
import { isImageType } from '../../parts/media-type.js';

/** The kind an engine must take for a part: `image` for an image (or a file of an image type), `file` for any other file. */
export function kindOf(part: ContentPart): keyof PartKinds | undefined {
  if (part.type === 'text') return undefined;
  return part.type === 'image' || isImageType(part.mediaType) ? 'image' : 'file';
}

/** Whether an engine that takes `accepts` sends `part` to its model. */
export function takes(accepts: PartKinds | undefined, part: ContentPart): boolean {
  const kind = kindOf(part);
  return kind === undefined || accepts?.[kind] === true;
}
