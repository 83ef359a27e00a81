// A stand-in for Chrome's Prompt API (`LanguageModel`), shaped as its specification
// (webmachinelearning/prompt-api) shapes it: static `availability()` and `create()` (with `monitor`
// reporting `downloadprogress`, `initialPrompts`, `signal`), sessions with `promptStreaming()`
// (a ReadableStream of text, `responseConstraint`, `signal`) and `destroy()`. Headless Chromium has
// no model; the real one is tried where `availability()` says it is there.

/** What the stand-in saw, for the tests to read. */
export interface StandInLog {
  availability: unknown[];
  created: Array<Record<string, unknown>>;
  prompts: Array<{ input: unknown; responseConstraint?: unknown }>;
  destroyed: number;
}

export interface StandInOptions {
  availability: 'unavailable' | 'downloadable' | 'downloading' | 'available';
  /** The reply to each prompt, in pieces (the nth prompt gets the nth reply). */
  replies?: string[][];
  /** Download progress `create()` reports (fractions of 1), before the session is ready. */
  progress?: number[];
  /** Keep the nth reply's stream open after its pieces (until it is cancelled or aborted). */
  holdReply?: number;
}

/** Install the stand-in as `globalThis.LanguageModel`; returns its log and a function that removes it. */
export function installLanguageModel(options: StandInOptions): { log: StandInLog; remove: () => void } {
  const log: StandInLog = { availability: [], created: [], prompts: [], destroyed: 0 };
  let prompt = 0;
  class LanguageModel extends EventTarget {
    static async availability(core?: unknown) {
      log.availability.push(core);
      return options.availability;
    }
    static async create(createOptions: Record<string, unknown> = {}) {
      log.created.push(structuredClone({ ...createOptions, signal: undefined, monitor: undefined }));
      if (options.availability === 'unavailable') throw new DOMException('The model is not available.', 'NotSupportedError');
      const monitor = new EventTarget();
      (createOptions.monitor as ((m: EventTarget) => void) | undefined)?.(monitor);
      for (const loaded of options.progress ?? []) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        monitor.dispatchEvent(new ProgressEvent('downloadprogress', { loaded, total: 1 }));
      }
      return new LanguageModel();
    }
    promptStreaming(input: unknown, promptOptions: { responseConstraint?: unknown; signal?: AbortSignal } = {}) {
      const n = prompt++;
      log.prompts.push({
        input: structuredClone(input),
        ...(promptOptions.responseConstraint ? { responseConstraint: structuredClone(promptOptions.responseConstraint) } : {}),
      });
      const pieces = options.replies?.[n] ?? [];
      return new ReadableStream<string>({
        start(controller) {
          for (const piece of pieces) controller.enqueue(piece);
          if (options.holdReply === n) {
            promptOptions.signal?.addEventListener('abort', () => controller.error(new DOMException('The prompt was aborted.', 'AbortError')));
            return;
          }
          controller.close();
        },
      });
    }
    destroy() {
      log.destroyed++;
    }
  }
  const global = globalThis as { LanguageModel?: unknown };
  const before = global.LanguageModel;
  global.LanguageModel = LanguageModel;
  return {
    log,
    remove: () => {
      if (before === undefined) delete global.LanguageModel;
      else global.LanguageModel = before;
    },
  };
}
