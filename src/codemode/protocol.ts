// The messages between a program's host and its sandbox (a dedicated worker, or the same
// thread). Every value crosses as JSON text, so nothing but JSON reaches either side.

/** The limits a sandbox enforces, every one resolved. */
export interface SandboxLimits {
  timeoutMs: number;
  memoryBytes: number;
  maxLogLines: number;
  maxOutputChars: number;
  maxToolCalls: number;
}

/** Host to worker, once: run this program. */
export interface StartMessage {
  type: 'start';
  code: string;
  /** The names the program's `tools` object holds. */
  names: string[];
  limits: SandboxLimits;
}

/** A call the program made: `args` is JSON text, each opaque value replaced by its ref. */
export interface CallMessage {
  type: 'call';
  id: number;
  name: string;
  args: string;
}

/** The host's answer to one call. */
export type CallAnswer =
  | { ok: true; json: string }
  /** An opaque value: `ref` is JSON text, `label` what the program's logs show for it. */
  | { ok: true; opaque: { ref: string; label: string } }
  | { ok: false; code: string; message: string };

/** Host to worker: the answer to call `id`. */
export interface AnswerMessage {
  type: 'answer';
  id: number;
  answer: CallAnswer;
}

/** How a program ended, as the sandbox saw it. */
export type SandboxOutcome =
  | { ok: true; result: string; logs: string[] }
  | { ok: false; code: 'program_timeout' | 'program_error' | 'aborted'; message: string; line?: number; logs: string[] };

/** Worker to host, once: the program ended. */
export interface DoneMessage {
  type: 'done';
  outcome: SandboxOutcome;
}

/** Worker to host, once: QuickJS is loaded and the program starts (its time counts from here). */
export interface ReadyMessage {
  type: 'ready';
}

/** Worker to host: the sandbox itself failed (QuickJS did not load, say). */
export interface BrokenMessage {
  type: 'broken';
  message: string;
}

export type HostToSandbox = StartMessage | AnswerMessage;
export type SandboxToHost = ReadyMessage | CallMessage | DoneMessage | BrokenMessage;
