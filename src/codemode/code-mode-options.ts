import { InvalidOptionError } from '../errors/invalid-option-error.js';

/**
 * Code Mode (`AgentOptions.codeMode`, `createWorkerRunner({ codeMode })`): the model is offered
 * one tool, `run_code({ code })`, and the tools as TypeScript declarations; each call its program
 * makes goes through the call pipeline. `true` for the defaults, or the program's bounds.
 */
export type CodeModeOption = boolean | CodeModeOptions;

/** The bounds of each program (see docs/code-mode.md). */
export interface CodeModeOptions {
  /** The time a program may run in the sandbox, in ms; waiting for a call or a person does not count. Default 30,000. */
  timeoutMs?: number;
  /** The sandbox's memory, in bytes. Default 64 MiB. */
  memoryBytes?: number;
}

/** The option checked: undefined when Code Mode is off, the bounds (maybe none given) when it is on; anything else is refused with `invalid_option`. */
export function checkCodeMode(option: unknown): CodeModeOptions | undefined {
  if (option === undefined || option === false) return undefined;
  if (option === true) return {};
  if (typeof option !== 'object' || option === null || Array.isArray(option)) {
    throw new InvalidOptionError('codeMode', `must be true, false or { timeoutMs?, memoryBytes? }, got ${option === null ? 'null' : typeof option}`);
  }
  const { timeoutMs, memoryBytes, ...rest } = option as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0)
    throw new InvalidOptionError('codeMode', `takes only timeoutMs and memoryBytes, got ${unknown.map((key) => JSON.stringify(key)).join(', ')}`);
  const bounds: CodeModeOptions = {};
  if (timeoutMs !== undefined) bounds.timeoutMs = wholeNumber('codeMode.timeoutMs', timeoutMs, 1);
  if (memoryBytes !== undefined) bounds.memoryBytes = wholeNumber('codeMode.memoryBytes', memoryBytes, 1024 * 1024);
  return bounds;
}

function wholeNumber(name: string, value: unknown, least: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < least) {
    throw new InvalidOptionError(name, `must be an integer of at least ${least}, got ${String(value)}`);
  }
  return value;
}
