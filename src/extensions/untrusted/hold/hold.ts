import type { HeldValue, RunResult } from '../../../core/run.js';
import type { ToolResult } from '../../../core/types.js';
import type { MediaPart } from '../../../core/parts.js';
import { decodeArguments } from '../../../call/decode.js';
import { toolFailure } from '../../../call/result.js';
import type { RunCall } from '../../../call/types.js';
import { isAmbiError } from '../../../errors/ambi-error.js';
import { errorMessage } from '../../../errors/error-message.js';
import { InvalidOptionError } from '../../../errors/invalid-option-error.js';
import type { TurnRequest } from '../../../runner/extension.js';
import type { RunSetup } from '../../../runner/run-setup.js';
import { MemoryHeldStore } from '../../../store/memory-held-store.js';
import type { AfterUntrusted, Tool } from '../../../tools/types.js';
import type { QuarantineHost } from '../quarantine.js';
import { handleOf, HeldValues } from './held-values.js';
import { heldTaint, type HeldTaint } from './held-taint.js';
import { inspected } from './inspect.js';
import { INSPECT_HELD, isInspectHeld } from './inspect-tool.js';
import { HOLD_INSTRUCTIONS } from './instructions.js';
import { type HeldReference, mentionsHeld, referencesIn, withHeldValues } from './references.js';

/** A call's arguments with the held values they name put in, or why the call ends there (nothing runs). */
export type ResolvedArguments = { ok: true; value: unknown } | { ok: false; code: string; message: string };

/** The most held values `RunResult.held` gives for one answer. */
const MAX_ANSWER_VALUES = 64;

/**
 * `untrusted: 'hold'`: what the model would read of an untrusted tool's result is held, and it
 * reads a handle; it passes held values by reference, and a call is tainted by the ones it carries:
 *
 *   open              what the conversation holds is read (ids, sources; not the values)
 *   beforeTurn        the model is told how handles work; `inspect_held` is offered where there is something to inspect
 *   resolveArguments  `{ "$held": "$N" }` at any depth is replaced by the value, before validation (the untrusted
 *                     extension's `beforeCall`); `unknown_held` otherwise
 *   taint             which held values a call carries, from where, and what its arguments' rules say (held-taint.ts)
 *   afterCall         an untrusted result (marked by the mark step) is held; so is the output of a call that
 *                     received held values, unless its tool says `heldOutput: 'plain'`; `inspect_held` is read in quarantine
 *   result            the held values the answer names (`RunResult.held`)
 *
 * Its state is the run tree's held values (HeldValues, shared with its leaves, whose ids are the
 * conversation's); what a call carries is read from the call's own arguments each time.
 */
export class HoldMode {
  readonly #setup: RunSetup;
  readonly #values: HeldValues;

  constructor(setup: RunSetup) {
    this.#setup = setup;
    const { conversation } = setup.options;
    const store = setup.agent.conversations.held;
    this.#values = setup.tree.of('held', () => {
      if (conversation === undefined) return new HeldValues(new MemoryHeldStore(), 'run');
      if (!store) throw new InvalidOptionError('untrusted', "'hold' keeps held values with the conversation, and this conversation store has no `held` store");
      return new HeldValues(store, conversation);
    });
  }

  open(): Promise<void> {
    return this.#values.load();
  }

  beforeTurn(request: TurnRequest): void {
    const { registry } = this.#setup.agent;
    // Something to inspect: an untrusted tool may bring held values, or the conversation holds some.
    if (registry.holdsUntrusted() || this.#values.holdsAny()) {
      request.instructions.push(HOLD_INSTRUCTIONS);
      return;
    }
    // Nothing to inspect: the built-in is not offered (nor listed in a tag-calling model's instructions).
    const offered = request.engine.tools;
    if (!offered.some((tool) => tool.name === INSPECT_HELD) || !isInspectHeld(registry.get(INSPECT_HELD))) return;
    const tools = offered.filter((tool) => tool.name !== INSPECT_HELD);
    const { parser, engine } = this.#setup.agent;
    const listed = engine.nativeTools ? -1 : request.instructions.indexOf(parser.instructions(offered));
    if (listed >= 0) request.instructions.splice(listed, 1, ...(tools.length > 0 ? [parser.instructions(tools)] : []));
    request.engine.tools = tools;
  }

  /** The held values a call's arguments put in, before validation; undefined, at once, when they name none. */
  resolveArguments(call: RunCall, args: unknown): ResolvedArguments | Promise<ResolvedArguments> | undefined {
    if (!mentionsHeld(args)) return undefined;
    const references = referencesIn(args);
    if (!references.ok) return { ok: false, code: 'invalid_arguments', message: `Invalid arguments for "${call.name}": ${references.problem}` };
    if (references.found.length === 0) return undefined;
    return this.#putIn(call, args, references.found);
  }

  async #putIn(call: RunCall, args: unknown, references: HeldReference[]): Promise<ResolvedArguments> {
    const values = await this.#values.values(references.map((reference) => reference.id));
    if (!values) {
      const unknown = [...new Set(references.map((r) => r.id))].filter((id) => !this.#values.info(id));
      return { ok: false, code: 'unknown_held', message: unknownHeld(call.name, unknown) };
    }
    const put = withHeldValues(args, values);
    return put.ok ? { ok: true, value: put.value } : { ok: false, code: 'invalid_arguments', message: `Invalid arguments for "${call.name}": ${put.problem}` };
  }

  /** The held values `call` carries (see heldTaint), `after` being its tool's `afterUntrusted`; undefined for none. */
  taint(call: RunCall, tool: Tool, after: AfterUntrusted): HeldTaint | undefined {
    const references = this.#references(call);
    return references.length > 0 ? heldTaint(tool, after, references, this.#values) : undefined;
  }

  /** A result as the model may read it: held where it may hold someone else's words (see the header). */
  async afterCall(call: RunCall, tool: Tool | undefined, result: ToolResult, quarantine: () => QuarantineHost): Promise<ToolResult> {
    // Results the runtime wrote without calling the tool hold only its own words.
    if (result.attempts === 0) return result;
    if (isInspectHeld(tool)) {
      const read = await inspected(call, result, quarantine(), await this.#heldParts(call));
      return read.untrusted ? this.#hold(call, read) : read;
    }
    const carried = this.#references(call).length > 0;
    if (result.untrusted || !tool || (carried && tool.heldOutput !== 'plain')) return this.#hold(call, result);
    return result;
  }

  /** The run's result with the held values its answer names, in the order it first names them. */
  async result(result: RunResult): Promise<RunResult> {
    const ids = [...new Set(result.text.match(/\$[1-9][0-9]{0,15}(?![0-9])/g) ?? [])].slice(0, MAX_ANSWER_VALUES);
    const records = await Promise.all(ids.map((id) => this.#values.get(id)));
    const held: HeldValue[] = records.flatMap((record) =>
      record ? [{ id: record.id, from: record.from, value: record.value, ...(record.parts ? { parts: record.parts } : {}) }] : [],
    );
    return { ...result, held };
  }

  /** Hold what the model would read of `result` (its output, or its error's message); the model reads the handle. */
  async #hold(call: RunCall, result: ToolResult): Promise<ToolResult> {
    const value = result.ok ? result.output : result.error.message;
    // A tool's images and files are held with its output: the model never receives their bytes.
    const parts = result.ok && result.parts ? { parts: result.parts } : {};
    try {
      const info = await this.#values.hold({ from: call.name, callId: call.id, value, ...parts });
      return { ...result, untrusted: true, held: handleOf(info) };
    } catch (error) {
      // Never the words themselves: the model reads that they could not be held, in the runtime's words.
      const code = isAmbiError(error) ? error.code : 'storage_error';
      const why = `The result of "${call.name}" could not be held, so it is not shown: ${errorMessage(error)}`;
      return { ...toolFailure(result, code, why, result.attempts, result.durationMs) };
    }
  }

  /** The images and files held with the values a call's arguments name (what `inspect_held` reads beside the value). */
  async #heldParts(call: RunCall): Promise<MediaPart[]> {
    const ids = [...new Set(this.#references(call).map((reference) => reference.id))];
    const records = await Promise.all(ids.map((id) => this.#values.get(id)));
    return records.flatMap((record) => record?.parts ?? []);
  }

  /** The references of a call's own arguments (as the model wrote them): none for arguments that name no held value. */
  #references(call: RunCall): HeldReference[] {
    if (!mentionsHeld(call.arguments)) return [];
    const decoded = decodeArguments(call.name, call.arguments);
    if (!decoded.ok) return [];
    const references = referencesIn(decoded.value);
    return references.ok ? references.found : [];
  }
}

/** What the model reads of a call that names held values its conversation does not hold. */
function unknownHeld(tool: string, ids: readonly string[]): string {
  const named = ids.map((id) => JSON.stringify(id)).join(', ');
  return `Tool "${tool}" was not run: this conversation holds no value ${named}. Pass only the ids of handles you were given ({"held": "$N", …}), as {"$held": "$N"}.`;
}
