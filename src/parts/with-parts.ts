import type { MediaPart } from '../core/parts.js';

/**
 * A tool's output with images or files beside it (`withParts`). The attempt stage takes the parts
 * apart from the output; anything else that reads it as JSON (`JSON.stringify`, a WebMCP caller)
 * reads the output alone.
 */
export class OutputWithParts<Output = unknown> {
  readonly #marked = true;

  constructor(
    readonly output: Output,
    readonly parts: readonly MediaPart[],
  ) {}

  /** The output alone, as JSON writes it. */
  toJSON(): Output {
    return this.output;
  }

  /** Whether `value` is one (a private field, so no plain object a tool returns passes for one). */
  static is(value: unknown): value is OutputWithParts {
    return typeof value === 'object' && value !== null && #marked in value;
  }
}

/**
 * Return images or files from a tool beside its JSON output: the model reads the output as ever,
 * and sees the parts where its engine takes them (an OpenAI-compatible vision model, an AI SDK
 * provider, Chrome's built-in model); elsewhere it reads that they were left out. Parts are checked
 * as a run's input parts are (`invalid_content`, `content_too_large`).
 *
 * @example
 * ```ts
 * // Needs: a page (a canvas), and a model that sees images.
 * import { defineTool, withParts } from 'ambi-web';
 *
 * const chart = defineTool({
 *   name: 'chart', description: 'Draws the sales chart', readOnly: true,
 *   parameters: { type: 'object', properties: {} },
 *   call: async () => {
 *     const canvas = new OffscreenCanvas(400, 200);
 *     canvas.getContext('2d')?.fillRect(10, 10, 100, 150);
 *     const png = await canvas.convertToBlob({ type: 'image/png' });
 *     return withParts({ drawn: true, width: 400, height: 200 }, [{ type: 'image', image: png }]);
 *   },
 * });
 * console.log(chart.name); // 'chart'
 * ```
 */
export function withParts<Output>(output: Output, parts: readonly MediaPart[]): OutputWithParts<Output> {
  return new OutputWithParts(output, parts);
}
