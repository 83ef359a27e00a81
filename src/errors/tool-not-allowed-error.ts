import { AmbiError } from './ambi-error.js';

/** A leaf was asked for tools outside its allow-list; refused rather than silently dropped. */
export class ToolNotAllowedError extends AmbiError {
  override name = 'ToolNotAllowedError';
  constructor(
    readonly toolNames: string[],
    allowed: readonly string[],
  ) {
    super('tool_not_allowed', `A leaf may not use ${toolNames.map((n) => `"${n}"`).join(', ')}; allowed: ${allowed.length ? allowed.join(', ') : 'none'}`);
  }
}
