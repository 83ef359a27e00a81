import type { RunInput } from '../../core/parts.js';
import type { ContentError } from '../../errors/content-error.js';
import { DEFAULT_MAX_PART_BYTES } from '../../parts/limits.js';
import { takeInput } from '../../parts/run-input.js';

/**
 * A run's input as it crosses to the runner worker: a string as it is; parts checked here (the same
 * coded refusal as in-process, before anything crosses), their bytes as Blobs. A Blob crosses a
 * worker as a handle on the same bytes (Chromium shares them, nothing is copied); an ArrayBuffer
 * the app gave is copied once, into its Blob, and stays the app's.
 */
export function pageInput(input: RunInput, maxPartBytes: number | undefined): { input: RunInput } | { refused: ContentError } {
  if (typeof input === 'string') return { input };
  const taken = takeInput(input, maxPartBytes ?? DEFAULT_MAX_PART_BYTES);
  if (taken.refused) return { refused: taken.refused };
  return { input: taken.parts ?? input };
}
