import { AmbiError } from './ambi-error.js';

/** Codes an engine failure can carry (an HTTP failure is an `EngineHttpError`, code `http_error`). */
export type EngineErrorCode =
  | 'aborted'
  | 'timeout'
  | 'network_error'
  | 'stream_cut'
  | 'malformed_stream'
  | 'stream_error'
  | 'script_exhausted'
  | 'invalid_engine_config'
  | (string & {});

/** A model request failed: the `code` says how (see `EngineErrorCode`). */
export class EngineError extends AmbiError {
  constructor(code: EngineErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
