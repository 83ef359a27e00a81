import { corsDiagnosis } from './cors-diagnosis.js';

/** The JSON-RPC error code this SDK writes for a call whose response stream broke (in the implementation-defined range). */
export const STREAM_LOST_CODE = -32099;

/**
 * A fetch for the transport that turns a `tools/call` response stream that breaks before
 * its answer (the server died mid-call) into that call's JSON-RPC error. The client would
 * otherwise wait for an answer that cannot come, until its own timeout. A request to `endpoint`
 * that a browser refuses says which CORS header or method was refused (see cors-diagnosis).
 */
export function guardedFetch(base: typeof fetch = globalThis.fetch.bind(globalThis), endpoint?: string): typeof fetch {
  let diagnosed = false;
  const target = endpoint === undefined ? undefined : new URL(endpoint).href;
  return async (input, init) => {
    let response: Response;
    try {
      response = await base(input, init);
    } catch (error) {
      // A browser says only "Failed to fetch" when CORS refuses a request: once, find out which part it refused.
      const url = String(input instanceof Request ? input.url : input);
      if (!(error instanceof TypeError) || diagnosed || init?.signal?.aborted || url !== target) throw error;
      diagnosed = true;
      const why = await corsDiagnosis(base, url, init);
      throw why ? new TypeError(`${error.message}: ${why}`, { cause: error }) : error;
    }
    const id = toolsCallId(init?.body);
    const sse = response.headers.get('content-type')?.startsWith('text/event-stream');
    if (id === undefined || !sse || !response.body) return response;
    return new Response(guardStream(response.body, id, init?.signal ?? undefined), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/** The JSON-RPC id of a `tools/call` request body, if that is what is sent. */
function toolsCallId(body: unknown): number | string | undefined {
  if (typeof body !== 'string' || !body.includes('"tools/call"')) return undefined;
  try {
    const message = JSON.parse(body) as { method?: unknown; id?: unknown };
    const { id } = message;
    return message.method === 'tools/call' && (typeof id === 'number' || typeof id === 'string') ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The stream as is, except that an error from the network (not our own abort) ends it with an
 * error answer for `id`. Not once the server gave an event id: the client then resumes the
 * stream itself (`Last-Event-ID`), which must not be cut short.
 */
function guardStream(body: ReadableStream<Uint8Array>, id: number | string, signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let resumable = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await reader.read();
        if (done) return controller.close();
        resumable ||= /(^|\n)id:/.test(decoder.decode(value, { stream: true }));
        controller.enqueue(value);
      } catch (error) {
        if (signal?.aborted || resumable) return controller.error(error);
        const answer = { jsonrpc: '2.0', id, error: { code: STREAM_LOST_CODE, message: 'The server closed the connection before answering' } };
        // A blank line first ends any event the server left half-written.
        controller.enqueue(new TextEncoder().encode(`\n\nevent: message\ndata: ${JSON.stringify(answer)}\n\n`));
        controller.close();
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}
