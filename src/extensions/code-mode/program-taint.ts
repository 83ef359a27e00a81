import type { UntrustedSource } from '../../core/run.js';
import type { ToolResult } from '../../core/types.js';
import type { CallHooks, CallVerdict, RunCall } from '../../call/types.js';
import type { AfterUntrusted, Tool } from '../../tools/types.js';

/**
 * What a program read of untrusted content (`untrusted: 'mark'`): from the first untrusted
 * result it read on, each call it makes is tainted as a call proposed after untrusted content
 * is (its tool's `afterUntrusted`: ask a person, refuse, or allow), and its output is marked.
 * In `'hold'` mode it never reads one (a held value is opaque): its calls are tainted by the
 * held values they carry, as the untrusted extension judges any call.
 */
export class ProgramTaint {
  readonly #sources: UntrustedSource[] = [];

  get tainted(): boolean {
    return this.#sources.length > 0;
  }

  /** The program read `result`, an untrusted one. */
  read(result: Pick<ToolResult, 'id' | 'name'>): void {
    this.#sources.push({ callId: result.id, name: result.name });
  }

  /** A call's verdict: the run's extensions' (`said`), made stricter by what the program read. */
  before(call: RunCall, tool: Tool | undefined, said: Said): Said {
    if (!this.tainted || !tool) return said;
    const mine = this.#verdict(call, tool);
    if (!mine) return said;
    if (mine.kind === 'refuse') return Promise.resolve(mine);
    return Promise.resolve(said).then((theirs) => combined(theirs, mine));
  }

  #verdict(call: RunCall, tool: Tool): Extract<CallVerdict, { kind: 'ask' | 'run' | 'refuse' }> | undefined {
    const after: AfterUntrusted = tool.afterUntrusted ?? (tool.readOnly === true ? 'allow' : 'ask');
    const sources = this.#sources.map((source) => ({ ...source }));
    if (after === 'refuse') {
      const read = [...new Set(sources.map((source) => source.name))].join(', ');
      return {
        kind: 'refuse',
        code: 'untrusted_refused',
        message: `Tool "${call.name}" was not run: the program called it after reading content from outside the app (results of ${read}), and this app does not run it then. Tell the user what you wanted to do and why, so they can decide and do it themselves.`,
      };
    }
    if (after === 'allow' && !tool.needsApproval) return undefined;
    return { kind: after === 'ask' ? 'ask' : 'run', because: { untrusted: { sources } }, standing: { tainted: true } };
  }
}

type Said = ReturnType<CallHooks['before']>;

/**
 * The extensions' verdict and the program's ask (or run that says why) together: a refusal of
 * theirs stands; else the stricter, saying all that was read, with the arguments they put in
 * (hold mode's held values) kept.
 */
function combined(theirs: CallVerdict | undefined, mine: Extract<CallVerdict, { kind: 'ask' | 'run' }>): CallVerdict {
  if (theirs?.kind === 'refuse') return theirs;
  const kind = theirs?.kind === 'ask' || mine.kind === 'ask' ? 'ask' : 'run';
  const sources = [...(theirs?.because?.untrusted?.sources ?? []), ...(mine.because?.untrusted?.sources ?? [])];
  const args = theirs?.arguments !== undefined ? { arguments: theirs.arguments } : {};
  return { kind, ...args, because: { untrusted: { ...theirs?.because?.untrusted, sources } }, standing: { tainted: true } };
}
