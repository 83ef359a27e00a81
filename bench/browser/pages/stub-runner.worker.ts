// A runner worker whose model answers from inside the worker (`fetch` replaced before the runner
// starts), so the moment a tool call arrives is stamped where it arrives: for tool-latency-idle.
// A request whose last message is a tool result gets "Done." at once; any other gets, after the
// idle time its model name says (`idle-<ms>`), one call of `ping`, stamped (timeOrigin + now)
// on the BroadcastChannel `bench-latency` as its bytes are handed to the engine.
import { serveRunner } from '../../../src/worker/runner/serve-runner.js';

const stamps = new BroadcastChannel('bench-latency');
const encoder = new TextEncoder();
const sse = (choice: Record<string, unknown>) =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, ...choice }] })}\n\n`;

globalThis.fetch = async (_input, init) => {
  const { model, messages } = JSON.parse(String(init?.body)) as { model: string; messages: Array<{ role: string }> };
  const idleMs = Number(/^idle-(\d+)$/.exec(model)?.[1] ?? 0);
  const answered = messages.at(-1)?.role === 'tool';
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (answered) {
        controller.enqueue(encoder.encode(`${sse({ delta: { content: 'Done.' }, finish_reason: 'stop' })}data: [DONE]\n\n`));
        controller.close();
        return;
      }
      setTimeout(() => {
        const call = { index: 0, id: 'call_ping', type: 'function', function: { name: 'ping', arguments: '{}' } };
        stamps.postMessage(performance.timeOrigin + performance.now());
        controller.enqueue(encoder.encode(`${sse({ delta: { tool_calls: [call] }, finish_reason: 'tool_calls' })}data: [DONE]\n\n`));
        controller.close();
      }, idleMs);
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
};

serveRunner();
