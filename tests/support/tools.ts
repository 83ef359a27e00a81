// Tool builders the runner tests share, in Node and through the WorkerRunner in Chromium.
import { defineTool, type ScriptedReply } from '../../src/index.js';

/** `{ note?: string }`: the parameters of the note tools. */
export const noteSchema = { type: 'object', properties: { note: { type: 'string' } } } as const;

/** A non-idempotent tool `remove` that needs approval and records the `note` of each call it runs. */
export function approvedRemove(ran: string[]) {
  return defineTool({
    name: 'remove',
    description: 'x',
    parameters: noteSchema,
    idempotent: false,
    needsApproval: true,
    call: ({ note }) => {
      ran.push(note ?? '');
      return `removed ${note}`;
    },
  });
}

/** A scripted model turn that calls `remove` (see approvedRemove) on `note`, with call id `id`. */
export const removeCall = (id: string, note: string): ScriptedReply => ({ toolCalls: [{ id, name: 'remove', arguments: { note } }] });

/** A non-idempotent tool `stuck` whose approval rule never settles; `ran.count` says how many of its calls ran. */
export function stuckApproval() {
  const ran = { count: 0 };
  const stuck = defineTool({
    name: 'stuck',
    description: 'x',
    parameters: noteSchema,
    idempotent: false,
    needsApproval: () => new Promise<boolean>(() => {}),
    call: () => ++ran.count,
  });
  return { stuck, ran };
}

/** A tool `name` whose calls run until their signal aborts: `onAbort` sees the signal, then the call rejects with its reason. */
export function untilAborted(name: string, onAbort: (signal: AbortSignal) => void, idempotent = false) {
  return defineTool({
    name,
    description: 'x',
    parameters: { type: 'object' },
    idempotent,
    call: (_args, { signal }) =>
      new Promise((_, reject) =>
        signal.addEventListener('abort', () => {
          onAbort(signal);
          reject(signal.reason);
        }),
      ),
  });
}
