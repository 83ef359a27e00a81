import type { ContentPart } from '../../core/parts.js';

/**
 * A run's parts as they cross to the runner worker: checked here (the same coded refusal as
 * in-process, before anything crosses), their bytes as Blobs. A Blob crosses a worker as a handle
 * on the same bytes (nothing is copied); an ArrayBuffer the app gave is copied once, into its Blob,
 * and stays the app's. The checks load with the first message of parts: a page that sends only
 * words never carries them.
 */
export async function pageParts(input: readonly ContentPart[], maxPartBytes: number | undefined): Promise<ContentPart[]> {
  const [{ takeInput }, { DEFAULT_MAX_PART_BYTES }] = await Promise.all([import('../../parts/run-input.js'), import('../../parts/limits.js')]);
  const taken = takeInput(input, maxPartBytes ?? DEFAULT_MAX_PART_BYTES);
  if (taken.refused) throw taken.refused;
  return taken.parts ?? [];
}
