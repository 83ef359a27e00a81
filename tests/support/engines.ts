// Engines written by hand for loop tests: each reply is a list of steps, and every request is recorded.
import type { Engine } from '../../src/index.js';
import type { EngineEvent, EngineRequest } from '../../src/extend/index.js';

export type Step = EngineEvent | { type: 'wait'; until: Promise<unknown> } | { type: 'fail'; error: Error };

/** An in-process engine that plays `replies` in order and records each request it gets. */
export class StepEngine implements Engine {
  readonly requests: EngineRequest[] = [];
  #next = 0;

  constructor(
    readonly replies: Step[][],
    readonly nativeTools = true,
  ) {}

  async *stream(request: EngineRequest): AsyncIterable<EngineEvent> {
    this.requests.push({ ...request, messages: structuredClone(request.messages) });
    const reply = this.replies[this.#next++];
    if (!reply) throw new Error(`StepEngine ran out of replies after ${this.replies.length}`);
    for (const step of reply) {
      request.signal?.throwIfAborted();
      if (step.type === 'wait') await step.until;
      else if (step.type === 'fail') throw step.error;
      else yield step;
    }
  }
}

/** A promise with its resolve function exposed. */
export function gate<T = void>(): { promise: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}

export const text = (value: string): EngineEvent => ({ type: 'text', text: value });
export const call = (id: string, name: string, args: unknown = {}): EngineEvent => ({ type: 'tool_call', call: { id, name, arguments: args } });
export const finish = (reason = 'stop'): EngineEvent => ({ type: 'finish', reason });
