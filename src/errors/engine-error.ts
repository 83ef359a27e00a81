import { AmbiError } from './ambi-error.js';
import type { EngineErrorCode, LocalModelErrorCode } from '../core/codes.js';

export type { EngineErrorCode };

/** A model request failed: the `code` says how (see `EngineErrorCode`). */
export class EngineError extends AmbiError {
  override name = 'EngineError';
  constructor(code: EngineErrorCode | 'http_error' | LocalModelErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
