import { EngineError } from './engine-error.js';

/** Codes a local model failure can carry (an abort is a plain `EngineError` with code `aborted`). */
export type LocalModelErrorCode =
  /** The bytes do not start with the GGUF magic, or its header is not readable GGUF. */
  | 'not_gguf'
  /** A GGUF version this engine cannot read (it reads 2 and 3). */
  | 'unsupported_gguf_version'
  /** The file ends before its header or its tensor data does. */
  | 'truncated_model'
  /** The download answered an HTTP error, could not connect, or broke off before the end. */
  | 'download_failed'
  /** The model (or its context) does not fit in the WebAssembly memory. */
  | 'out_of_memory'
  /** llama.cpp refused the model for another reason (see the message). */
  | 'load_failed'
  /** `@wllama/wllama` (an optional peer dependency) could not be imported. */
  | 'runtime_unavailable'
  /** The prompt does not fit in the context (`contextSize`). */
  | 'context_overflow'
  /** llama.cpp failed while generating (see the message). */
  | 'generation_failed';

/** An in-browser model could not be fetched, checked, loaded or run; `status` is set for an HTTP failure. */
export class LocalModelError extends EngineError {
  /** The HTTP status of a failed download, when there was one. */
  readonly status: number | undefined;

  constructor(code: LocalModelErrorCode, message: string, options: { cause?: unknown; status?: number } = {}) {
    super(code, message, { cause: options.cause });
    this.status = options.status;
  }
}
