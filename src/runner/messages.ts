import type { ToolCall } from '../tools/types.js';

/** One entry of a conversation, in the SDK's own provider-neutral shape. */
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

export interface SystemMessage {
  role: 'system';
  content: string;
}

export interface UserMessage {
  role: 'user';
  content: string;
  /** `runtime`: written by ambi-web (e.g. a format error with no call id), not by a person. */
  origin?: 'user' | 'runtime';
}

export interface AssistantMessage {
  role: 'assistant';
  content: string;
  toolCalls?: ToolCall[];
  /** Provider fields the server needs echoed back with this message (kept verbatim). */
  provider?: Record<string, unknown>;
}

export interface ToolMessage {
  role: 'tool';
  toolCallId: string;
  name: string;
  /** The ToolResult as the model reads it (JSON text). */
  content: string;
}
