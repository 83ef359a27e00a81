import type { ContentPart, RunInput } from '../core/parts.js';
import { ContentError } from '../errors/content-error.js';
import { textOf } from './content-text.js';
import { contentParts } from './normalize.js';

/** A run's input as the run takes it: its text (for `run_started`), its parts when it has any, or why it is refused. */
export interface TakenInput {
  text: string;
  parts?: ContentPart[];
  refused?: ContentError;
}

/**
 * Read a run's input: a string as it is; a list of parts checked and made plain (see normalize.ts),
 * its text the text parts' joined. Never throws: a refusal is kept, and the run rejects with it.
 */
export function takeInput(input: RunInput, maxPartBytes: number): TakenInput {
  if (!Array.isArray(input)) return { text: input as string };
  try {
    if (input.length === 0) throw new ContentError('invalid_content', 'the message', 'The message holds no parts: give text, an image or a file');
    const parts = contentParts(input, maxPartBytes);
    return { text: textOf(parts), parts };
  } catch (error) {
    return { text: '', refused: error as ContentError };
  }
}
