import { InvalidOptionError } from '../errors/invalid-option-error.js';
import type { SandboxLimits } from './protocol.js';
import type { ProgramLimits } from './types.js';

/** The limits a program runs under when its options name none. */
export const DEFAULT_LIMITS: Readonly<SandboxLimits> = {
  timeoutMs: 30_000,
  memoryBytes: 64 * 1024 * 1024,
  maxLogLines: 100,
  maxOutputChars: 20_000,
  maxToolCalls: 1_000,
};

/** The least memory QuickJS starts a context in: below it nothing at all would run. */
const MIN_MEMORY_BYTES = 1024 * 1024;

/** `options`' limits, the defaults filled in; a limit out of range is refused with `invalid_option`. */
export function resolveLimits(options: ProgramLimits): SandboxLimits {
  return {
    timeoutMs: positive('timeoutMs', options.timeoutMs, DEFAULT_LIMITS.timeoutMs, 1),
    memoryBytes: positive('memoryBytes', options.memoryBytes, DEFAULT_LIMITS.memoryBytes, MIN_MEMORY_BYTES),
    maxLogLines: positive('maxLogLines', options.maxLogLines, DEFAULT_LIMITS.maxLogLines, 0),
    maxOutputChars: positive('maxOutputChars', options.maxOutputChars, DEFAULT_LIMITS.maxOutputChars, 1),
    maxToolCalls: positive('maxToolCalls', options.maxToolCalls, DEFAULT_LIMITS.maxToolCalls, 0),
  };
}

function positive(name: string, value: number | undefined, fallback: number, least: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < least) {
    throw new InvalidOptionError(name, `must be an integer of at least ${least}, got ${String(value)}`);
  }
  return value;
}
