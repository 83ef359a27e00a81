import type { ParsePart, ParseResult } from './types.js';

/** Gather streamed parts, batch after batch, into one result (text concatenated, calls and errors in order). */
export function collectParts(...batches: ReadonlyArray<Iterable<ParsePart>>): ParseResult {
  const text: string[] = [];
  const result: ParseResult = { text: '', calls: [], errors: [] };
  for (const parts of batches) {
    for (const part of parts) {
      if (part.type === 'text') text.push(part.text);
      else if (part.type === 'call') result.calls.push(part.call);
      else result.errors.push(part.error);
    }
  }
  // The parts are all here, so one join at the end rather than a `+=` per part.
  result.text = text.join('');
  return result;
}
