/** The JSON-RPC error code this SDK writes for a call whose response stream broke (in the implementation-defined range). */
export const STREAM_LOST_CODE = -32099;

/**
 * A fetch for the transport that turns a `tools/call` response stream that breaks before
 * its answer (the server died mid-call) into that call's JSON-RPC error. The client would
 * otherwise wait for an answer that cannot come, until its own timeout.
 */
export function guardedFetch(base: typeof fetch = globalThis.fetch.bind(globalThis)): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
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
