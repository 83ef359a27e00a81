import { parseJsonOr } from '../../parser/parse-json.js';
import { newCallId } from '../../util/ids.js';
import type { ToolCall } from '../../core/types.js';
import { JsonEnd } from './json-end.js';
import { asRecord } from './wire-json.js';

/** A call being assembled from `delta.tool_calls` pieces. */
interface PendingCall {
  /** Sort key: the server's `index`, or the arrival position when it sent none. */
  order: number;
  id?: string;
  name: string;
  args: string;
  /** Whether `args` is already one whole JSON value, read as it grows (asked only of calls without index or id). */
  end: JsonEnd;
  provider?: Record<string, unknown>;
}

/** Keys of a tool-call delta we interpret; any other key is a provider field echoed back verbatim. */
const KNOWN_KEYS = new Set(['index', 'id', 'type', 'function']);

/** Merges streamed tool-call deltas into whole calls. */
export interface ToolCallMerger {
  /** Take one entry of a chunk's `delta.tool_calls`. */
  add(delta: unknown): void;
  /** The merged calls in index order, arguments parsed (raw text when they do not parse). */
  finish(): ToolCall[];
}

/** Start merging the tool-call deltas of one response. */
export function createToolCallMerger(): ToolCallMerger {
  const calls: PendingCall[] = [];
  const byIndex = new Map<number, PendingCall>();
  /** The latest call to get each id: a map, as a hostile server may send thousands of calls. */
  const byId = new Map<string, PendingCall>();

  const open = (order: number, id: string | undefined): PendingCall => {
    const call: PendingCall = { order, id, name: '', args: '', end: new JsonEnd() };
    calls.push(call);
    if (id !== undefined) byId.set(id, call);
    return call;
  };

  const withIndex = (index: number, id: string | undefined): PendingCall => {
    const current = byIndex.get(index);
    // Some servers (Ollama, proxies in front of Gemini) give every call index 0: a new id means a new call.
    if (current && (id === undefined || current.id === undefined || current.id === id)) return current;
    const call = open(index, id);
    byIndex.set(index, call);
    return call;
  };

  const withoutIndex = (id: string | undefined, name: string): PendingCall => {
    if (id !== undefined) {
      // Ids may repeat (the runner makes them unique per run): an id with a name starts a call,
      // unless the call that id opened still waits for its name; an id alone continues the latest.
      const same = byId.get(id);
      return same && (name === '' || same.name === '') ? same : open(calls.length, id);
    }
    const last = calls.at(-1);
    // No index and no id (Gemini): a piece continues the last call, unless it names another
    // tool or the last call's arguments are already a whole JSON value.
    if (!last) return open(0, undefined);
    const startsAnother = name !== '' && last.name !== '' && (name !== last.name || last.end.whole);
    return startsAnother ? open(calls.length, undefined) : last;
  };

  return {
    add(delta) {
      const piece = asRecord(delta);
      if (!piece) return;
      const id = typeof piece.id === 'string' && piece.id !== '' ? piece.id : undefined;
      const fn = asRecord(piece.function) ?? {};
      const name = typeof fn.name === 'string' ? fn.name : '';
      const call = typeof piece.index === 'number' ? withIndex(piece.index, id) : withoutIndex(id, name);
      if (call.id === undefined && id !== undefined) {
        call.id = id;
        byId.set(id, call);
      }
      // The name arrives whole in the first piece; later pieces repeat it or send "" (LM Studio).
      if (call.name === '' && name !== '') call.name = name;
      if (typeof fn.arguments === 'string') {
        call.args += fn.arguments;
        call.end.append(fn.arguments);
      } else if (fn.arguments !== undefined && fn.arguments !== null) {
        // Some servers send the arguments as an object rather than JSON text.
        call.args = JSON.stringify(fn.arguments);
        call.end = new JsonEnd();
        call.end.append(call.args);
      }
      // for…in, not Object.entries: no array per delta. A piece is parsed JSON, so every key is its own.
      for (const key in piece) {
        const value = piece[key];
        if (!KNOWN_KEYS.has(key) && value !== undefined) (call.provider ??= {})[key] = value;
      }
    },
    finish() {
      return [...calls]
        .sort((a, b) => a.order - b.order)
        .map((call) => ({
          id: call.id ?? newCallId(),
          name: call.name,
          arguments: parseArguments(call.args),
          ...(call.provider ? { provider: call.provider } : {}),
        }));
    },
  };
}

/**
 * Nesting past which arguments stay the server's text: the ToolManager refuses them anyway, and
 * a value that deep could not be written back (JSON.stringify and structured cloning recurse).
 */
const MAX_NESTING = 64;

/**
 * JSON arguments as a value; empty text is `{}`; text that does not parse, or nests deeper
 * than MAX_NESTING, stays raw for the ToolManager to report (and goes back to the server as sent).
 */
export function parseArguments(text: string): unknown {
  if (text.trim() === '') return {};
  return nestsDeeperThan(text, MAX_NESTING) ? text : parseJsonOr(text, text);
}

/** Whether JSON text opens more than `limit` arrays and objects at once: one pass, strings skipped. */
function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c)
        i++; // a backslash: the next character is escaped
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      if (++depth > limit) return true;
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return false;
}
