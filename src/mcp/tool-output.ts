import { McpError } from '../errors/mcp-error.js';
import { ToolError } from '../errors/tool-error.js';
import type { JsonValue } from '../core/types.js';
import type { JsonArgsValidator } from '../validation/types.js';

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
 * the other blocks described by type and size. `isError` throws a ToolError with its text.
 */
export function toolOutput(toolName: string, result: McpCallResult, checkOutput: JsonArgsValidator | undefined): JsonValue {
  const blocks = Array.isArray(result.content) ? result.content : [];
  if (result.isError === true) throw new ToolError(blocksText(blocks) || `Tool "${toolName}" reported an error`);
  if (result.structuredContent === undefined) return blocksText(blocks);
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
