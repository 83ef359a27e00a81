import { McpError } from '../errors/mcp-error.js';
import { errorMessage } from '../errors/error-message.js';
import { displayUrl } from './display-url.js';

/** How long connecting (initialize, then the tool list) may take when the config sets no `timeoutMs`. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 15_000;

/**
 * The bound on one connection attempt: the config's `timeoutMs` (else 15 s) for everything
 * connecting does, and the caller's signal. A server that takes the connection and never
 * answers `initialize` (or `tools/list`) must not hold `mcp()` for the client's own 60 s.
 */
export class ConnectDeadline {
  readonly #controller = new AbortController();
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #stopListening: () => void;
  #failure: McpError | undefined;

  constructor(
    readonly url: string,
    readonly timeoutMs: number,
    readonly caller?: AbortSignal,
  ) {
    const abort = () => this.#end(new McpError('aborted', `Connecting to the MCP server at ${displayUrl(url)} was aborted${reasonOf(caller?.reason)}`));
    this.#stopListening = () => caller?.removeEventListener('abort', abort);
    if (caller?.aborted) abort();
    else caller?.addEventListener('abort', abort, { once: true });
  }

  /** Start the clock: when the first request goes out (loading the client code is not the server's time). */
  start(): void {
    if (this.#failure || this.#timer !== undefined) return;
    this.#timer = setTimeout(
      () =>
        this.#end(new McpError('mcp_connect_failed', `Could not use the MCP server at ${displayUrl(this.url)}: it did not answer within ${this.timeoutMs} ms`)),
      this.timeoutMs,
    );
  }

  /** Aborted when the time is up or the caller aborts: for the client's requests. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Why connecting was cut short (`mcp_connect_failed` on time, `aborted` for the caller), once it was. */
  get failure(): McpError | undefined {
    return this.#failure;
  }

  /** `work`, or the deadline's error as soon as it passes (the work, then abandoned, settles unheard). */
  within<T>(work: Promise<T>): Promise<T> {
    if (this.#failure) {
      work.catch(() => {});
      return Promise.reject(this.#failure);
    }
    return new Promise<T>((resolve, reject) => {
      const stop = () => reject(this.#failure);
      this.signal.addEventListener('abort', stop, { once: true });
      work.then(resolve, (error: unknown) => reject(this.#failure ?? error)).finally(() => this.signal.removeEventListener('abort', stop));
    });
  }

  /** Connecting is over (done or failed): no timer left behind. */
  dispose(): void {
    clearTimeout(this.#timer);
    this.#stopListening();
  }

  #end(failure: McpError): void {
    if (this.#failure) return;
    this.#failure = failure;
    this.dispose();
    this.#controller.abort(failure);
  }
}

function reasonOf(reason: unknown): string {
  if (reason === undefined) return '';
  // A DOMException AbortError's own message ("This operation was aborted") says nothing more.
  if (reason instanceof Error && reason.name === 'AbortError') return '';
  return `: ${errorMessage(reason)}`;
}
