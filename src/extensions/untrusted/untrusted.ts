import type { RunEvent, UntrustedContext } from '../../core/run.js';
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
import { quarantined } from './quarantine.js';

/**
 * Untrusted content (prompt injection, by design). Words from someone other than the person
 * (a page, a note written by others, a third party's server) never steer a consequential call
 * unasked:
 *
 *   afterCall    the result of a call of an untrusted tool that ran is marked (its tool message
 *                carries the mark into the conversation and its stores); a quarantined tool's
 *                output is first read by a separate request (quarantine.ts); so is a recorded
 *                result a new run reports for a call an interrupted run left
 *   beforeTurn   a turn whose request (as trimmed) holds a marked message, or offers a tool whose
 *                definition someone else wrote (`untrustedDefinition`), is exposed
 *   event        its `tool_call` and `iteration_finished` events say so, with the sources
 *   holdsCall    a call it proposes that a person may have to see never starts while it streams
 *   beforeCall   such a call is tainted: its tool's `afterUntrusted` asks, refuses or lets it run,
 *                and a card says what it read and which arguments came from there (flows.ts)
 *   reply        what the model wrote in an exposed turn is marked too (its reply, the runtime's
 *                note quoting it): it may carry the words on after a context budget trims them out
 *
 * The mark lives on the messages themselves, so nothing else remembers what was read.
 */
export function untrustedExtension(setup: RunSetup): RunExtension {
  const { agent } = setup;
  const toolOf = (name: string) => agent.registry.get(name);
  /** The untrusted content of the request of the turn whose calls run now (a resumed run: of the interrupted reply). */
  let turn: Exposure | undefined;
  return {
    name: 'untrusted',
    open(history) {
      // The interrupted reply's calls were proposed with what came before it in the conversation.
      // Its request's tools are not stored: those offered now stand for them (an untrusted server connected now was, most likely, then).
      if (setup.resume) {
        const before = history.slice(
          0,
          Math.max(
            0,
            history.findLastIndex((m) => m.role === 'assistant'),
          ),
        );
        turn = exposureOf(before, definitionSources(agent.registry.definitions(), toolOf));
      }
      return undefined;
    },
    beforeTurn(request) {
      turn = exposureOf(request.engine.messages, definitionSources(request.engine.tools, toolOf));
    },
    holdsCall(call) {
      const tool = agent.registry.get(call.name);
      return turn !== undefined && tool !== undefined && afterUntrustedOf(tool) !== 'allow';
    },
    beforeCall(call) {
      const tool = agent.registry.get(call.name);
      return turn && tool ? taintedVerdict(call, tool, turn) : undefined;
    },
    async afterCall(call, result) {
      // Results the runtime wrote without calling the tool (denied, refused, invalid) hold only its own words.
      if (result.attempts === 0) return result;
      const tool = agent.registry.get(call.name);
      if (tool?.quarantine && result.ok) {
        const { options } = setup;
        return quarantined(result, tool.quarantine, {
          engine: agent.engine,
          validation: agent.registry.validation,
          maxChars: agent.maxResultChars,
          maxRetries: options.maxOutputRetries ?? DEFAULT_MAX_OUTPUT_RETRIES,
          signal: setup.signal,
          emit: setup.emit,
          exceeded: () => setup.usage.exceeded(),
        }).catch((error: unknown) =>
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
    },
    reply(message) {
      return turn && !isMarked(message) ? { ...message, untrusted: true } : message;
    },
    event(event) {
      // A leaf's events come adorned by the leaf's own turns.
      if (!turn || event.leafId !== undefined) return event;
      if (event.type === 'tool_call' || event.type === 'iteration_finished') return { ...event, untrusted: { sources: turn.sources.slice() } } as RunEvent;
      return event;
    },
  };
}

/** What a call of `tool` does when proposed after untrusted content: its own setting, else `allow` for a tool that changes nothing and `ask` for any other. */
export function afterUntrustedOf(tool: Pick<Tool, 'afterUntrusted' | 'readOnly'>): AfterUntrusted {
  return tool.afterUntrusted ?? (tool.readOnly === true ? 'allow' : 'ask');
}

/**
 * A tainted call's verdict. `ask`: a person decides, whatever the tool's own rule, and only a
 * standing approval given on a tainted call decides it. `refuse`: it does not run. `allow`: the
 * tool's own rule decides; should it ask, the card still says what was read.
 */
function taintedVerdict(call: RunCall, tool: Tool, exposure: Exposure): CallVerdict | undefined {
  const after = afterUntrustedOf(tool);
  if (after === 'refuse') return { kind: 'refuse', code: 'untrusted_refused', message: refusal(call, exposure) };
  if (after === 'allow' && !tool.needsApproval) return undefined;
  const because = { untrusted: contextOf(call, exposure) };
  return { kind: after === 'ask' ? 'ask' : 'run', because, standing: { tainted: true } };
}

/** What the card says: the sources of the turn, and the arguments found in them. */
function contextOf(call: RunCall, exposure: Exposure): UntrustedContext {
  const decoded = decodeArguments(call.name, call.arguments);
  return { sources: exposure.sources.slice(), flows: decoded.ok ? flowsOf(decoded.value, exposure) : [] };
}

/** What the model reads of a refused call: why, and what to do instead. */
function refusal(call: RunCall, exposure: Exposure): string {
  return (
    `Tool "${call.name}" was not run: it was proposed while content from outside the app (${describeSources(exposure)}) was in your context, ` +
    'and this app does not run it then. Tell the user what you wanted to do and why, so they can decide and do it themselves.'
  );
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
