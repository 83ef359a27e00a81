import type { LanguageModelSession, LanguageModelStatic, PromptApiAccess, PromptApiEvent, PromptApiRequest } from './access.js';

/** The `LanguageModel` of this realm (a document's, in Chrome), if it has one. */
export function realmLanguageModel(): LanguageModelStatic | undefined {
  const model = (globalThis as { LanguageModel?: unknown }).LanguageModel;
  return typeof model === 'function' || (typeof model === 'object' && model !== null) ? (model as LanguageModelStatic) : undefined;
}

/** The browser's model through a `LanguageModel` of this realm: one session per prompt, destroyed when its stream ends or is cancelled. */
export function directPromptApi(model: LanguageModelStatic): PromptApiAccess {
  return {
    availability: (options) => model.availability(options),
    prompt: async (request) => promptStream(model, request),
  };
}

function promptStream(model: LanguageModelStatic, request: PromptApiRequest): ReadableStream<PromptApiEvent> {
  const abort = new AbortController();
  let session: LanguageModelSession | undefined;
  const free = () => {
    try {
      session?.destroy();
    } catch {
      // A session the browser already let go of.
    }
    session = undefined;
  };
  return new ReadableStream<PromptApiEvent>({
    start(controller) {
      // Nothing more is queued once the reader cancelled (the browser may still report progress).
      const push = (event: PromptApiEvent) => {
        if (!abort.signal.aborted) controller.enqueue(event);
      };
      const run = async () => {
        session = await model.create({
          ...request.session,
          signal: abort.signal,
          // Download progress, while the model is fetched: `loaded` is a fraction of `total` (1).
          monitor: (monitor) =>
            monitor.addEventListener('downloadprogress', (event) => {
              const { loaded, total } = event as Event & { loaded?: unknown; total?: unknown };
              if (typeof loaded === 'number') push({ type: 'download', loaded, total: typeof total === 'number' ? total : 1 });
            }),
        });
        if (abort.signal.aborted) return;
        const options = { signal: abort.signal, ...(request.responseConstraint ? { responseConstraint: request.responseConstraint } : {}) };
        const reader = session.promptStreaming(request.input, options).getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          if (typeof value === 'string' && value !== '') push({ type: 'text', text: value });
        }
        if (!abort.signal.aborted) controller.close();
      };
      run()
        .catch((error: unknown) => {
          if (!abort.signal.aborted) controller.error(error);
        })
        .finally(free);
    },
    cancel(reason) {
      abort.abort(reason);
      free();
    },
  });
}
