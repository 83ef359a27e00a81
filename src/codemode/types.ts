import type { JsonValue } from '../core/types.js';

/** What a program may ask of its host: each `await tools.x(args)` is one `call`. */
export interface ProgramTools {
  /** The tools the program's `tools` object holds (`tools.x`, `tools['x-y']`); any other name is not a function there. */
  readonly names: readonly string[];
  /**
   * Run tool `name` with `args` (JSON, an opaque value's ref in place of each opaque value the
   * program passed). Resolve with the tool's JSON output, or an `OpaqueValue` the program may
   * pass on but not read; reject to make the program's `await` throw: an error's `code`
   * (`'tool_error'` when it has none) and message reach the program as `error.code` / `error.message`.
   */
  call(name: string, args: JsonValue, context: ProgramCallContext): Promise<unknown>;
}

/** What the host learns about one call besides its name and arguments. */
export interface ProgramCallContext {
  /** The call's place in the program's calls, from 0 in the order the program made them: stable across re-runs of the same program. */
  readonly index: number;
  /** Aborted when the program ends (returned, failed, timed out, aborted) before this call settled. */
  readonly signal: AbortSignal;
}

/** Bounds of one program run; every field has a default (see `docs/code-mode.md`). */
export interface ProgramLimits {
  /** The time the program may spend running in the sandbox, in ms; waiting for tool calls does not count. Default 30,000. */
  timeoutMs?: number;
  /** The sandbox's heap, in bytes. Default 64 MiB. */
  memoryBytes?: number;
  /** `console.log` lines kept; the rest are counted in a last line. Default 100. */
  maxLogLines?: number;
  /** Characters of the result's JSON kept, and of the log lines together. Default 20,000. */
  maxOutputChars?: number;
  /** Tool calls one program may make; the ones past it reject with code `too_many_calls`. Default 1,000. */
  maxToolCalls?: number;
}

/** Options of `runProgram`. */
export interface ProgramOptions extends ProgramLimits {
  tools: ProgramTools;
  /** Stops the program at once (its worker terminated) and aborts its calls; `runProgram` rejects with code `aborted`. */
  signal?: AbortSignal;
  /**
   * Where the sandbox runs: `'worker'`, a dedicated Web Worker of its own per program (the default
   * where `Worker` exists: a browser page or worker); `'in-process'`, on the caller's thread (the
   * default in Node and where no `Worker` exists, such as an extension's service worker).
   */
  isolation?: 'worker' | 'in-process';
}

/** What a program gave: its returned value (JSON; `null` for none) and its `console.log` lines, both bounded. */
export interface ProgramOutput {
  result: JsonValue;
  logs: string[];
}

const OPAQUE = Symbol.for('ambi-web.opaque-value');

/**
 * A value the program may hold and pass back to tools, never read. Inside the program it is a
 * frozen empty object; wherever the program puts it in a call's arguments or its result, the
 * host receives `ref` in its place. `label` is what `console.log` shows for it.
 */
export interface OpaqueValue {
  readonly [OPAQUE]: true;
  readonly ref: JsonValue;
  readonly label: string;
}

/** Mark a tool's answer as opaque to the program (see `OpaqueValue`). */
export function opaqueValue(ref: JsonValue, label = '[opaque value]'): OpaqueValue {
  return { [OPAQUE]: true, ref, label };
}

/** True for a value made by `opaqueValue`. */
export function isOpaqueValue(value: unknown): value is OpaqueValue {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[OPAQUE] === true;
}
