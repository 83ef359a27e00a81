import { McpError } from '../errors/mcp-error.js';
import { ToolError } from '../errors/tool-error.js';
import type { JsonValue } from '../core/types.js';
import type { JsonArgsValidator } from '../validation/types.js';
import type { MediaPart } from '../core/parts.js';
import { errorMessage } from '../errors/error-message.js';
import { mediaParts } from '../parts/normalize.js';
import { type OutputWithParts, withParts } from '../parts/with-parts.js';

/** A content block of a `tools/call` result, as far as this SDK reads it. */
export interface McpContentBlock {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  resource?: { uri?: string; mimeType?: string; text?: string; blob?: string };
}

/** A `tools/call` result, as far as this SDK reads it. */
export interface McpCallResult {
  content?: McpContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
}

/**
 * What the model reads of a result: `structuredContent` when present (checked against the
 * pinned `outputSchema` if there is one), otherwise (with or without a schema) the text blocks joined with newlines and
 * the other blocks described by type and size. Image and audio blocks are also parts beside the
 * output (an image part, an audio file part), which the model sees where its engine takes them; a
 * block whose data is no image (or not base64) stays described only, saying why. `isError` throws
 * a ToolError with its text.
 */
export function toolOutput(toolName: string, result: McpCallResult, checkOutput: JsonArgsValidator | undefined): JsonValue | OutputWithParts {
  const blocks = Array.isArray(result.content) ? result.content : [];
  if (result.isError === true) throw new ToolError(blocksText(blocks) || `Tool "${toolName}" reported an error`);
  const { parts, refused } = mediaBlocks(blocks);
  const output = outputOf(toolName, result, blocks, checkOutput, refused);
  return parts.length > 0 ? withParts(output, parts) : output;
}

function outputOf(
  toolName: string,
  result: McpCallResult,
  blocks: readonly McpContentBlock[],
  checkOutput: JsonArgsValidator | undefined,
  refused: readonly string[],
): JsonValue {
  if (result.structuredContent === undefined) return [blocksText(blocks), ...refused].join('\n');
  if (checkOutput) {
    const checked = checkOutput(result.structuredContent);
    if (!checked.ok)
      throw new McpError(
        'invalid_output',
        `Tool "${toolName}" returned structuredContent that does not match its outputSchema: ${checked.problems.slice(0, 10).join('; ')}`,
      );
  }
  return result.structuredContent as JsonValue;
}

/** The image and audio blocks as parts (`data` base64, checked as any part is); those that cannot be, said why. */
function mediaBlocks(blocks: readonly McpContentBlock[]): { parts: MediaPart[]; refused: string[] } {
  const parts: MediaPart[] = [];
  const refused: string[] = [];
  for (const block of blocks) {
    if ((block.type !== 'image' && block.type !== 'audio') || typeof block.data !== 'string') continue;
    const mediaType = typeof block.mimeType === 'string' ? block.mimeType : block.type === 'image' ? 'image/png' : 'audio/wav';
    const url = `data:${mediaType};base64,${block.data}`;
    const part: MediaPart = block.type === 'image' ? { type: 'image', image: url, mediaType } : { type: 'file', data: url, mediaType };
    try {
      parts.push(...mediaParts([part], Infinity));
    } catch (error) {
      refused.push(`[the ${block.type} above is not shown: ${errorMessage(error)}]`);
    }
  }
  return { parts, refused };
}

function blocksText(blocks: readonly McpContentBlock[]): string {
  return blocks.map(describeBlock).join('\n');
}

function describeBlock(block: McpContentBlock): string {
  switch (block.type) {
    case 'text':
      return String(block.text ?? '');
    case 'image':
    case 'audio':
      return `[${block.type} ${block.mimeType ?? 'of unknown type'}, ${base64Bytes(block.data)} bytes]`;
    case 'resource_link':
      return `[resource link ${block.uri ?? ''}${block.mimeType ? ` (${block.mimeType})` : ''}]`;
    case 'resource': {
      const { uri = '', mimeType, text, blob } = block.resource ?? {};
      const size = typeof text === 'string' ? `${text.length} characters` : `${base64Bytes(blob)} bytes`;
      return `[resource ${uri}${mimeType ? ` (${mimeType})` : ''}, ${size}]`;
    }
    default:
      return `[${String(block.type)} block]`;
  }
}

/** The decoded size of base64 text, without decoding it. */
function base64Bytes(data: unknown): number {
  if (typeof data !== 'string') return 0;
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}
