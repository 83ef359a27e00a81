// A model that answers from inside the worker it runs in (`fetch` replaced), so the moment a tool
// call arrives is stamped where it arrives: for tool-latency-idle, in our runner worker and in the
// AI SDK app's worker alike. A request whose last message is a tool result gets "Done." at once;
// any other gets, after the idle time its URL says (`…/idle-<ms>/v1/chat/completions`), one call
// of `tool`, stamped (timeOrigin + now) on the BroadcastChannel `bench-latency` as its bytes are
// handed over.

const encoder = new TextEncoder();
const sse = (choice: Record<string, unknown>) =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, ...choice }] })}\n\n`;

/** Replace this worker's `fetch` with the stub model calling `tool`. */
export function stubModel(tool: string): void {
  const stamps = new BroadcastChannel('bench-latency');
  globalThis.fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const { messages } = JSON.parse(String(init?.body)) as { messages: Array<{ role: string }> };
    const idleMs = Number(/\/idle-(\d+)\//.exec(url)?.[1] ?? 0);
    const answered = messages.at(-1)?.role === 'tool';
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        if (answered) {
          controller.enqueue(encoder.encode(`${sse({ delta: { content: 'Done.' }, finish_reason: 'stop' })}data: [DONE]\n\n`));
          controller.close();
          return;
        }
        setTimeout(() => {
          const call = { index: 0, id: 'call_0', type: 'function', function: { name: tool, arguments: '{}' } };
          stamps.postMessage(performance.timeOrigin + performance.now());
          controller.enqueue(encoder.encode(`${sse({ delta: { role: 'assistant', tool_calls: [call] }, finish_reason: 'tool_calls' })}data: [DONE]\n\n`));
          controller.close();
        }, idleMs);
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  };
}
