import type { RunEvent } from '../../core/run.js';
import type { JsonValue, ToolCall, ToolResult, ToolSuccess } from '../../core/types.js';

// Run events as they cross from the runner worker to the page.
// - The three events every call sends (tool_call, tool_started, tool_finished) cross as short
//   arrays instead of objects: a structured clone writes each property's name with each object and
//   the page's copy is made object by object, so names and objects were most of a call's bytes and
//   garbage. Only an event of exactly the usual shape is packed; one with any other field (a
//   leaf's, an untrusted call's, a failure, an edited call) crosses as it is.
// - A page tool's output the run took unchanged does not cross back: the page answered it and
//   keeps it until the run ends, for the call's tool_finished and the run's result (a 1 MB page
//   result crosses once, to the worker). Only a runner with one page does this (`keepsAnswers`):
//   a shared runner's page may serve calls of runs it does not follow, whose ends it never sees.
// - A run's answer crosses once in its result, not also as its last message's content.

const PROPOSED = 0;
const STARTED = 1;
const FINISHED = 2;
/** A success whose output is the page's own answer, unchanged. */
const FINISHED_SERVED = 3;
/** A run's result with what it holds twice, or the page holds, left out: the answer in its last message, the page's own answers at `served`. */
const RUN_FINISHED_PACKED = 4;

type Proposed = [kind: typeof PROPOSED, id: string, name: string, args: unknown, idempotencyKey: string];
type Started = [kind: typeof STARTED, callId: string, name: string, attempt: number];
type Finished = [kind: typeof FINISHED, id: string, name: string, attempts: number, durationMs: number, output: JsonValue];
type FinishedServed = [kind: typeof FINISHED_SERVED, id: string, name: string, attempts: number, durationMs: number];
type RunFinishedPacked = [kind: typeof RUN_FINISHED_PACKED, event: RunEvent, served: number[], answerInLast: boolean];

/** One run event as it crosses: the event, or its packed form. */
export type WireEvent = RunEvent | Proposed | Started | Finished | FinishedServed | RunFinishedPacked;

type ToolFinished = Extract<RunEvent, { type: 'tool_finished' }>;
type RunFinished = Extract<RunEvent, { type: 'run_finished' }>;

/** How many own enumerable fields `value` has (no array made, unlike Object.keys). */
function fieldCount(value: object): number {
  let count = 0;
  for (const _ in value) count++;
  return count;
}

/** Smaller outputs cross back for less than their keeping costs (a number, a short text): only these are kept. */
const KEPT_TEXT = 256;
const worthKeeping = (output: unknown) => (typeof output === 'object' && output !== null) || (typeof output === 'string' && output.length >= KEPT_TEXT);

/** The page's answers a run took unchanged, by run and call: what need not cross back. */
class ServedAnswers {
  /** Answered, the call not finished yet. */
  readonly #pending = new Map<string, unknown>();
  /** Taken unchanged by a finished call, by run, until the run ends. */
  readonly #kept = new Map<string, Map<string, unknown>>();

  answered(callId: string, output: unknown): void {
    if (worthKeeping(output)) this.#pending.set(callId, output);
  }

  /** Call `callId` of run `runId` finished: its answer, kept for the run's result when `keep` says the run took it. */
  finish(runId: string, callId: string, keep: (answer: unknown) => boolean): unknown {
    const answer = this.#pending.get(callId);
    this.#pending.delete(callId);
    if (answer === undefined || !keep(answer)) return undefined;
    let kept = this.#kept.get(runId);
    if (!kept) this.#kept.set(runId, (kept = new Map()));
    kept.set(callId, answer);
    return answer;
  }

  kept(runId: string, callId: string): unknown {
    return this.#kept.get(runId)?.get(callId);
  }

  end(runId: string): void {
    this.#kept.delete(runId);
  }

  clear(): void {
    this.#pending.clear();
    this.#kept.clear();
  }
}

/** Both ends of a link: the page's answers, kept on each side alike where the page keeps them (`keepsAnswers`). */
abstract class LinkEnd {
  protected readonly answers: ServedAnswers | undefined;

  constructor(keepsAnswers: boolean) {
    this.answers = keepsAnswers ? new ServedAnswers() : undefined;
  }

  /** The page answered call `callId` with `output` (as it crossed). */
  answered(callId: string, output: unknown): void {
    this.answers?.answered(callId, output);
  }
}

/** The runner worker's side, one per page link: packs each event, knowing what that page answered. */
export class EventPacker extends LinkEnd {
  /** Run `runId`'s event in its wire form (`null`, the end of its events, as it is). */
  pack(runId: string, event: RunEvent | null): WireEvent | null {
    if (event === null) {
      this.answers?.end(runId);
      return null;
    }
    switch (event.type) {
      case 'tool_call':
        return fieldCount(event) === 2 ? (packCall(event.call) ?? event) : event;
      case 'tool_started':
        return fieldCount(event) === 4 ? [STARTED, event.callId, event.name, event.attempt] : event;
      case 'tool_finished':
        return this.#finished(runId, event);
      case 'run_finished':
        return this.#runFinished(runId, event);
      default:
        return event;
    }
  }

  #finished(runId: string, event: ToolFinished): WireEvent {
    const result = event.result;
    const usual = result.ok && fieldCount(event) === 2 && fieldCount(result) === 6;
    // Kept only where the page is told it was (FINISHED_SERVED): it keeps the same ones.
    const served = this.answers?.finish(runId, result.id, (answer) => usual && answer === (result as ToolSuccess).output);
    if (!usual) return event;
    return served !== undefined
      ? [FINISHED_SERVED, result.id, result.name, result.attempts, result.durationMs]
      : [FINISHED, result.id, result.name, result.attempts, result.durationMs, result.output];
  }

  /**
   * A run's result: its answer is also its last message's content (one string, written twice by
   * a clone), and its results may hold the page's own answers. Either goes once, or not at all.
   */
  #runFinished(runId: string, event: RunFinished): WireEvent {
    const { result } = event;
    const answers = this.answers;
    const served: number[] = [];
    const toolResults = answers
      ? result.toolResults.map((toolResult, at) => {
          if (!toolResult.ok || answers.kept(runId, toolResult.id) !== toolResult.output) return toolResult;
          served.push(at);
          const { output: _left, ...rest } = toolResult;
          return rest as ToolResult;
        })
      : result.toolResults;
    const last = result.messages.at(-1);
    const answerInLast = last?.role === 'assistant' && result.text.length >= KEPT_TEXT && last.content === result.text;
    if (served.length === 0 && !answerInLast) return event;
    const messages = answerInLast ? [...result.messages.slice(0, -1), { ...last, content: '' }] : result.messages;
    return [RUN_FINISHED_PACKED, { ...event, result: { ...result, toolResults, messages } }, served, answerInLast];
  }
}

function packCall(call: ToolCall): Proposed | undefined {
  return call.idempotencyKey !== undefined && fieldCount(call) === 4 ? [PROPOSED, call.id, call.name, call.arguments, call.idempotencyKey] : undefined;
}

/** The page's side: unpacks each event, putting back the outputs it answered. */
export class EventUnpacker extends LinkEnd {
  /** Run `runId`'s event from its wire form. */
  unpack(runId: string, wire: WireEvent): RunEvent {
    if (!Array.isArray(wire)) {
      if (wire.type === 'tool_finished') this.answers?.finish(runId, wire.result.id, () => false);
      return wire;
    }
    switch (wire[0]) {
      case PROPOSED:
        return { type: 'tool_call', call: { id: wire[1], name: wire[2], arguments: wire[3], idempotencyKey: wire[4] } };
      case STARTED:
        return { type: 'tool_started', callId: wire[1], name: wire[2], attempt: wire[3] };
      case FINISHED:
        this.answers?.finish(runId, wire[1], () => false);
        return { type: 'tool_finished', result: success(wire[1], wire[2], wire[5], wire[3], wire[4]) };
      case FINISHED_SERVED: {
        const output = this.answers?.finish(runId, wire[1], () => true);
        return { type: 'tool_finished', result: success(wire[1], wire[2], (output ?? null) as JsonValue, wire[3], wire[4]) };
      }
      case RUN_FINISHED_PACKED: {
        const event = wire[1] as RunFinished;
        const { toolResults, messages, text } = event.result;
        for (const at of wire[2])
          toolResults[at] = { ...toolResults[at]!, output: (this.answers?.kept(runId, toolResults[at]!.id) ?? null) as JsonValue } as ToolResult;
        if (wire[3]) (messages[messages.length - 1] as { content: string }).content = text;
        return event;
      }
    }
  }

  /** Run `runId`'s events ended: what it kept goes. */
  end(runId: string): void {
    this.answers?.end(runId);
  }

  /** The runner is gone: nothing kept is asked for again. */
  clear(): void {
    this.answers?.clear();
  }
}

/** A success in ToolSuccess's field order (the order an in-process run's results have). */
function success(id: string, name: string, output: JsonValue, attempts: number, durationMs: number): ToolSuccess {
  return { id, name, ok: true, output, attempts, durationMs };
}
