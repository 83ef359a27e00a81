import type { RunResult, UntrustedContext } from '../../core/run.js';
import type { ToolResult } from '../../core/types.js';
import { decodeArguments } from '../../call/decode.js';
import { toolFailure } from '../../call/result.js';
import { errorMessage } from '../../errors/error-message.js';
import type { CallVerdict, RunCall } from '../../call/types.js';
import type { RunExtension } from '../../runner/extension.js';
import { DEFAULT_MAX_OUTPUT_RETRIES } from '../../runner/run-options.js';
import type { RunSetup } from '../../runner/run-setup.js';
import type { AfterUntrusted, Tool } from '../../tools/types.js';
import { definitionSources, type Exposure, exposureOf, isMarked } from './exposure.js';
import { flowsOf } from './flows.js';
import { type QuarantineHost, quarantined } from './quarantine.js';
import { HoldMode, type ResolvedArguments } from './hold/hold.js';
import { isThenable } from '../../util/thenable.js';
import { type HeldTaint, stricter } from './hold/held-taint.js';

// Hold mode's `inspect_held`, which Agent.make registers for an agent in hold mode: loaded with this
// extension, which every run of such an agent loads anyway (src/agent/features.ts).
export { inspectHeldTool, isInspectHeld } from './hold/inspect-tool.js';

/**
 * Untrusted content (prompt injection, by design). Words from someone other than the person
 * (a page, a note written by others, a third party's server) never steer a consequential call
 * unasked:
 *
 *   open         a run that continues an interrupted reply takes that reply's turn as exposed or not
 *   afterCall    the result of a call of an untrusted tool that ran is marked (its tool message
 *                carries the mark into the conversation and its stores); a quarantined tool's
 *                output is first read by a separate request (quarantine.ts); so is a recorded
 *                result a new run reports for a call an interrupted run left
 *   beforeTurn   a turn whose request (as trimmed) holds a marked message, or offers a tool whose
 *                definition someone else wrote (`untrustedDefinition`), is exposed
 *   event        its `tool_call` and `iteration_finished` events say so, with the sources
 *   beforeCall   a call it proposes is tainted: its tool's `afterUntrusted` asks, refuses or lets it
 *                run, and a card says what it read and which arguments came from there (flows.ts);
 *                a card is shown only once the reply ended, so such a call never runs before then
 *   afterTurn    what the model wrote in an exposed turn is marked too (its reply, the runtime's
 *                notes on it): it may carry the words on after a context budget trims them out
 *
 * The mark lives on the messages themselves, so nothing else remembers what was read. In
 * `untrusted: 'hold'` mode (hold/hold.ts) what would be marked is held instead: the model reads a
 * handle, passes the value by reference, and a call is tainted by the held values it carries too.
 */
export function untrustedExtension(setup: RunSetup): RunExtension {
  const { agent } = setup;
  const toolOf = (name: string) => agent.registry.get(name);
  const hold = agent.untrusted === 'hold' ? new HoldMode(setup) : undefined;
  /** The untrusted content of the request of the turn whose calls run now (a resumed run: of the interrupted reply). */
  let turn: Exposure | undefined;
  const quarantineHost = (): QuarantineHost => ({
    engine: agent.engine,
    validation: agent.registry.validation,
    maxChars: agent.maxResultChars,
    maxRetries: setup.options.maxOutputRetries ?? DEFAULT_MAX_OUTPUT_RETRIES,
    signal: setup.signal,
    emit: setup.emit,
    exceeded: () => setup.usage.exceeded(),
  });
  /** What makes a call tainted: its turn's exposure, the held values it carries, or both. */
  const taintOf = (call: RunCall, tool: Tool): Taint | undefined => {
    const held = hold?.taint(call, tool, afterUntrustedOf(tool));
    return turn || held ? { exposure: turn, held } : undefined;
  };
  return {
    name: 'untrusted',
    async open(start) {
      await hold?.open();
      // The interrupted reply's calls were proposed with what came before it in the conversation.
      // Its request's tools are not stored: those offered now stand for them (an untrusted server connected now was, most likely, then).
      if (start.continues) {
        const history = (await start.history()).messages;
        const before = history.slice(
          0,
          Math.max(
            0,
            history.findLastIndex((m) => m.role === 'assistant'),
          ),
        );
        turn = exposureOf(before, definitionSources(agent.registry.definitions(), toolOf));
      }
    },
    beforeTurn(request) {
      hold?.beforeTurn(request);
      turn = exposureOf(request.engine.messages, definitionSources(request.engine.tools, toolOf));
    },
    beforeCall(call, args) {
      const tool = agent.registry.get(call.name);
      const taint = tool ? taintOf(call, tool) : undefined;
      const verdict = tool && taint ? taintedVerdict(call, tool, taint) : undefined;
      // Hold mode: the held values the arguments name, put in before validation (or `unknown_held`).
      if (verdict?.kind === 'refuse') return verdict;
      const resolving = hold?.resolveArguments(call, args);
      if (!resolving) return verdict;
      const said = verdict ?? { kind: 'run' as const };
      const combined = (resolved: ResolvedArguments): CallVerdict =>
        resolved.ok ? { ...said, arguments: resolved.value } : { kind: 'refuse', code: resolved.code, message: resolved.message };
      return isThenable(resolving) ? resolving.then(combined) : combined(resolving);
    },
    async afterCall(call, result, replyRead) {
      // A result is marked, held or read in quarantine once the reply that asked for it ended (its turn kept, its usage counted).
      await replyRead;
      const tool = agent.registry.get(call.name);
      const marked = await markedResult(call, tool, result, quarantineHost);
      return hold ? hold.afterCall(call, tool, marked, quarantineHost) : marked;
    },
    afterTurn(end) {
      if (!turn) return;
      if (!isMarked(end.reply)) end.reply = { ...end.reply, untrusted: true };
      end.notes = end.notes.map((note) => (isMarked(note) ? note : { ...note, untrusted: true }));
    },
    event(event) {
      // A leaf's events come adorned by the leaf's own turns.
      if (event.leafId !== undefined) return event;
      if (event.type === 'tool_call') {
        const tool = agent.registry.get(event.call.name);
        const held = hold && tool ? hold.taint(event.call as RunCall, tool, afterUntrustedOf(tool)) : undefined;
        if (!turn && !held) return event;
        const sources = [...(turn?.sources ?? []), ...(held?.sources ?? [])];
        return { ...event, untrusted: { sources, ...(held ? { held: held.held } : {}) } };
      }
      if (turn && event.type === 'iteration_finished') return { ...event, untrusted: { sources: turn.sources.slice() } };
      return event;
    },
    ...(hold ? { result: (result: RunResult) => hold.result(result) } : {}),
  };
}

/** A call's taint: the exposure of the turn that proposed it, the held values it carries. */
interface Taint {
  exposure: Exposure | undefined;
  held: HeldTaint | undefined;
}

/**
 * A result as the mark step leaves it: results the runtime wrote without calling the tool stay
 * as they are; a quarantined tool's output is read in quarantine; an untrusted tool's result (or
 * one whose tool is gone) is marked.
 */
async function markedResult(call: RunCall, tool: Tool | undefined, result: ToolResult, host: () => QuarantineHost): Promise<ToolResult> {
  if (result.attempts === 0) return result;
  if (tool?.quarantine && result.ok) {
    return quarantined(result, tool.quarantine, host()).catch((error: unknown) =>
      // Never the raw output: the model must not read what quarantine was for.
      marked(
        toolFailure(
          result,
          'invalid_output',
          `The output of "${call.name}" could not be read in quarantine: ${errorMessage(error)}`,
          result.attempts,
          result.durationMs,
        ),
      ),
    );
  }
  // A tool gone since the call started cannot vouch for its result: marked too.
  return !tool || tool.untrusted || tool.quarantine ? marked(result) : result;
}

/** What a call of `tool` does when proposed after untrusted content: its own setting, else `allow` for a tool that changes nothing and `ask` for any other. */
export function afterUntrustedOf(tool: Pick<Tool, 'afterUntrusted' | 'readOnly'>): AfterUntrusted {
  return tool.afterUntrusted ?? (tool.readOnly === true ? 'allow' : 'ask');
}

/** The rule a tainted call follows: the tool's `afterUntrusted` for an exposed turn, its arguments' for held values; the stricter. */
function ruleOf(tool: Tool, taint: Taint): AfterUntrusted {
  const exposed = taint.exposure ? afterUntrustedOf(tool) : 'allow';
  return taint.held ? stricter(exposed, taint.held.rule) : exposed;
}

/**
 * A tainted call's verdict. `ask`: a person decides, whatever the tool's own rule, and only a
 * standing approval given on a tainted call decides it. `refuse`: it does not run. `allow`: the
 * tool's own rule decides; should it ask, the card still says what was read.
 */
function taintedVerdict(call: RunCall, tool: Tool, taint: Taint): CallVerdict | undefined {
  const after = ruleOf(tool, taint);
  if (after === 'refuse') return { kind: 'refuse', code: 'untrusted_refused', message: refusal(call, tool, taint) };
  if (after === 'allow' && !tool.needsApproval) return undefined;
  const because = { untrusted: contextOf(call, taint) };
  return { kind: after === 'ask' ? 'ask' : 'run', because, standing: { tainted: true } };
}

/** What the card says: the sources of the turn and of the held values, the arguments found in the turn's sources, and the held ones. */
function contextOf(call: RunCall, { exposure, held }: Taint): UntrustedContext {
  const decoded = exposure ? decodeArguments(call.name, call.arguments) : undefined;
  return {
    sources: [...(exposure?.sources ?? []), ...(held?.sources ?? [])],
    ...(exposure ? { flows: decoded?.ok ? flowsOf(decoded.value, exposure) : [] } : {}),
    ...(held ? { held: held.held } : {}),
  };
}

/** What the model reads of a refused call: why, and what to do instead. */
function refusal(call: RunCall, tool: Tool, { exposure, held }: Taint): string {
  const why: string[] = [];
  if (exposure && afterUntrustedOf(tool) === 'refuse')
    why.push(`it was proposed while content from outside the app (${describeSources(exposure)}) was in your context`);
  if (held?.rule === 'refuse')
    why.push(`it was given held values (${held.held.map((h) => `${h.id} at ${h.path || '/'}`).join(', ')}) where it may not take them`);
  return `Tool "${call.name}" was not run: ${why.join('; ')}, and this app does not run it then. Tell the user what you wanted to do and why, so they can decide and do it themselves.`;
}

/** The sources of a turn in words: results of which tools, definitions by whom, the model's own earlier replies. */
function describeSources(exposure: Exposure): string {
  const named = (kind: string | undefined) => [...new Set(exposure.sources.filter((source) => source.kind === kind).map((source) => source.name))];
  const parts: string[] = [];
  const results = named(undefined);
  const definitions = named('definitions');
  if (results.length > 0) parts.push(`results of ${results.join(', ')}`);
  if (definitions.length > 0) parts.push(`tool definitions from ${definitions.join(', ')}`);
  if (named('reply').length > 0) parts.push('your own earlier replies written after reading such content');
  return parts.join('; ');
}

function marked(result: ToolResult): ToolResult {
  return result.untrusted ? result : { ...result, untrusted: true };
}
