// Wire types between an extension page and a tab's content script. Every exchange has a port of
// its own (`chrome.tabs.connect`): closing it is the cancel, and the port closing from the tab's
// side (the tab closed, navigated away, or the frame went) is the tab gone. Chrome sends these as
// JSON: values cross as JSON does.
import type { ToolDefinition } from '../core/types.js';
import type { MediaPart } from '../core/parts.js';
import type { ToolPolicy } from '../tools/types.js';

/** The name of every port tab tools open: a content script's other ports are left alone. */
export const TAB_TOOLS_PORT = 'ambi-web:tab-tools';

/**
 * The runtime message a content script sends to learn which document it runs in: Chrome tells the
 * extension page that answers (`sender.documentId`), never the content script itself.
 */
export const WHICH_DOCUMENT = 'ambi-web:which-document';

/** The document a tab's frame shows, as a tab tool's call is bound to it (`Tool.target`): Chrome's ids, and what the person sees. */
export interface TabDocument {
  [key: string]: string | number;
  tabId: number;
  frameId: number;
  /** Chrome's id of the document: a navigation makes a new one (a same-document one, an app's route change, does not). */
  documentId: string;
  origin: string;
  url: string;
  title: string;
}

/** A tab tool as it crosses: its definition, its policy and its approval rule's kind (`ask`: the tab decides). */
export interface TabToolDescriptor extends ToolDefinition, ToolPolicy {
  approval: 'never' | 'always' | 'ask';
}

/** What the page asks, one request per port. */
export type TabRequest =
  | { t: 'list' }
  /** Which document the content script runs in (`TabDocument`). */
  | { t: 'where' }
  | { t: 'call'; name: string; args: unknown; callId: string; attempt: number; idempotencyKey: string }
  | { t: 'ask'; name: string; args: unknown };

/** What the tab answers: `failed` carries a code (`invalid_arguments`, `tool_error`, `timeout`, …) and a message. */
export type TabReply =
  | { t: 'tools'; tools: TabToolDescriptor[] }
  /** `parts`: a tool's images and files (`withParts`), their bytes as data: URLs (Chrome's messages carry JSON only). */
  | { t: 'done'; value: unknown; parts?: MediaPart[] }
  | { t: 'failed'; code: string; message: string };
