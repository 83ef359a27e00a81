import type { SandboxOutcome } from './protocol.js';
import { PROGRAM_FILE } from './guest-prelude.js';

/** What the prelude reports of a program that threw. */
export interface ThrownReport {
  name: string;
  message: string;
  stack: string;
  line?: number;
  /** The program threw something that is not an Error (a string, an object). */
  thrown: boolean;
}

type Failure = Extract<SandboxOutcome, { ok: false }>;

const FRAME = new RegExp(`${PROGRAM_FILE.replace('.', '\\.')}:(\\d+)`);

/** The `program_error` of a program that threw: its error's name and message, and the line it was thrown at. */
export function thrownFailure(report: ThrownReport, memoryBytes: number, logs: string[]): Failure {
  const line = report.line ?? lineOf(report.stack);
  let message = report.thrown ? `Uncaught ${report.message}` : `${report.name}: ${report.message}`;
  if (report.name === 'InternalError' && report.message === 'out of memory') message += ` (the program's memory limit is ${memoryBytes} bytes)`;
  if (report.name === 'InternalError' && report.message === 'stack overflow') message += ' (recursion too deep)';
  return {
    ok: false,
    code: 'program_error',
    message: line === undefined ? message : `${message} (line ${line})`,
    ...(line === undefined ? {} : { line }),
    logs,
  };
}

/** A program stopped at its deadline. */
export function timeoutFailure(timeoutMs: number, logs: string[]): Failure {
  return { ok: false, code: 'program_timeout', message: `The program ran past its ${timeoutMs} ms deadline and was stopped.`, logs };
}

/** A program whose own result can never come: it awaits something nothing will settle. */
export function stuckFailure(logs: string[]): Failure {
  return { ok: false, code: 'program_error', message: 'The program awaits a promise that nothing can settle (no tool call is pending).', logs };
}

/**
 * The sandbox itself broke while the program ran: the host's stack ran out inside QuickJS
 * (source or data nested deeper than the interpreter checks), or the WebAssembly trapped.
 */
export function brokenFailure(error: unknown, logs: string[]): Failure {
  const overflow = error instanceof RangeError;
  const message = overflow
    ? 'The program nests too deep for the sandbox (its stack ran out); flatten it.'
    : `The sandbox failed while running the program: ${error instanceof Error ? error.message : String(error)}`;
  return { ok: false, code: 'program_error', message, logs };
}

/** The first line of the program named in a QuickJS stack trace. */
function lineOf(stack: string): number | undefined {
  const match = FRAME.exec(stack);
  return match ? Number(match[1]) : undefined;
}
