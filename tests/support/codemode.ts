// Code Mode in tests: a model that writes programs (one `run_code` call per reply), or answers,
// and records what each request offered it; tools that count their effects.
import type { RunEvent } from '../../src/index.js';
import type { Engine, EngineEvent, EngineRequest } from '../../src/extend/index.js';
import { defineTool, type ParametersSchema } from '../../src/index.js';

/** One reply: a program (`run_code`), text, or a reply made from the request. */
export type ProgramReply = { code: string } | string | ((request: EngineRequest) => { code: string } | string);

/** A native-calls engine that answers `replies` in order (the last text again once they run out), recording each request. */
export class ProgramEngine implements Engine {
  readonly nativeTools = true;
  readonly requests: EngineRequest[] = [];
  #next = 0;
  #ids = 0;

  constructor(
    readonly replies: ProgramReply[],
    /** The answer to a request that offers no tools (a quarantined read, `inspect_held`). */
    readonly reader: (request: EngineRequest) => string = () => '{}',
  ) {}

  async *stream(request: EngineRequest): AsyncIterable<EngineEvent> {
    if (request.tools.length === 0) {
      yield { type: 'text', text: this.reader(request) };
      yield { type: 'finish', reason: 'stop' };
      return;
    }
    this.requests.push(request);
    const planned = this.replies[Math.min(this.#next++, this.replies.length - 1)]!;
    const reply = typeof planned === 'function' ? planned(request) : planned;
    yield { type: 'usage', usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 } };
    if (typeof reply === 'string') {
      yield { type: 'text', text: reply };
      yield { type: 'finish', reason: 'stop' };
      return;
    }
    yield { type: 'tool_call', call: { id: `program_${++this.#ids}`, name: 'run_code', arguments: { code: reply.code } } };
    yield { type: 'finish', reason: 'tool_calls' };
  }
}

/** Effects that happened, by tool, in order. */
export class Effects {
  readonly done: Array<{ tool: string; args: unknown }> = [];
  count(tool: string): number {
    return this.done.filter((effect) => effect.tool === tool).length;
  }
}

const object = (properties: Record<string, unknown>, required: string[]): ParametersSchema =>
  ({ type: 'object', properties, required, additionalProperties: false }) as ParametersSchema;

/** `send_email` (not idempotent: an effect), `lookup` (read-only), `archive` (asks a person first). */
export function appTools(effects: Effects) {
  return [
    defineTool({
      name: 'send_email',
      description: 'Send an email',
      parameters: object({ to: { type: 'string' }, body: { type: 'string' } }, ['to', 'body']),
      idempotent: false,
      call: (args: { to: string; body: string }) => {
        effects.done.push({ tool: 'send_email', args });
        return { sent: true, to: args.to };
      },
    }),
    defineTool({
      name: 'lookup',
      description: 'Look a person up by name',
      parameters: object({ name: { type: 'string', minLength: 1 } }, ['name']),
      readOnly: true,
      call: ({ name }: { name: string }) => ({ name, email: `${name.toLowerCase()}@example.com` }),
    }),
    defineTool({
      name: 'archive',
      description: 'Archive a note',
      parameters: object({ id: { type: 'string' } }, ['id']),
      idempotent: false,
      needsApproval: true,
      call: (args: { id: string }) => {
        effects.done.push({ tool: 'archive', args });
        return `archived ${args.id}`;
      },
    }),
  ];
}

/** Collect a run's events, answering each approval with `decide` (approve when it returns true). */
export async function eventsOf(
  run: { events: AsyncIterable<RunEvent>; approve(id: string): void; deny(id: string, reason?: string): void },
  decide?: (event: Extract<RunEvent, { type: 'approval_requested' }>) => boolean,
): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of run.events) {
    events.push(event);
    if (event.type === 'approval_requested' && decide) {
      if (decide(event)) run.approve(event.call.id);
      else run.deny(event.call.id, 'not now');
    }
  }
  return events;
}
