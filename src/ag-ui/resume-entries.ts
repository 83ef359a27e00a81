import { AmbiError } from '../errors/ambi-error.js';
import type { Decision } from '../ui/run-segments.js';
import type { AgUiInterrupt } from './events.js';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const named = (id: unknown) => JSON.stringify(String(id).slice(0, 80));

/**
 * The decisions a resume stands for, by call id, or why it is refused (AG-UI's rules: every open
 * interrupt answered, each once, by its id; a resolved answer is `{ approved: boolean,
 * editedArgs?: object, reason?: string }`; a cancelled one denies the call). All or nothing:
 * a refused resume decides nothing, and the interrupts stay open for a better one.
 */
export function readResume(open: readonly AgUiInterrupt[], entries: unknown): Map<string, Decision> | AmbiError {
  if (open.length === 0) return new AmbiError('invalid_resume', 'No interrupt is open: the last AG-UI run of this run did not end with an interrupt');
  if (!Array.isArray(entries)) return new AmbiError('invalid_resume', 'A resume is an array of entries');
  const waiting = new Set(open.map((interrupt) => interrupt.id));
  const decisions = new Map<string, Decision>();
  for (const entry of entries) {
    if (!isRecord(entry) || typeof entry.interruptId !== 'string') return new AmbiError('invalid_resume', 'A resume entry has no interruptId');
    const id = entry.interruptId;
    if (!waiting.has(id)) return new AmbiError('unknown_approval', `No open interrupt has the id ${named(id)}: nothing was decided`);
    if (decisions.has(id)) return new AmbiError('invalid_resume', `The interrupt ${named(id)} is answered twice`);
    const decision = decisionOf(entry);
    if (decision instanceof AmbiError) return decision;
    decisions.set(id, decision);
  }
  const unanswered = open.filter((interrupt) => !decisions.has(interrupt.id));
  if (unanswered.length > 0)
    return new AmbiError('invalid_resume', `Every open interrupt must be answered; ${unanswered.map((i) => named(i.id)).join(', ')} is not`);
  return decisions;
}

function decisionOf(entry: Record<string, unknown>): Decision | AmbiError {
  if (entry.status === 'cancelled') return { approved: false, reason: 'The person dismissed the request without an answer' };
  const { payload } = entry;
  if (entry.status !== 'resolved' || !isRecord(payload) || typeof payload.approved !== 'boolean') {
    return new AmbiError('invalid_resume', `The answer to ${named(entry.interruptId)} must be resolved with { approved: boolean }, or cancelled`);
  }
  if (payload.reason !== undefined && typeof payload.reason !== 'string') return new AmbiError('invalid_resume', 'A reason must be a string');
  const reason = typeof payload.reason === 'string' && payload.reason !== '' ? { reason: payload.reason } : {};
  if (!payload.approved) return { approved: false, ...reason };
  if (payload.editedArgs === undefined) return { approved: true };
  if (!isRecord(payload.editedArgs)) return new AmbiError('invalid_resume', 'editedArgs must be an object (the full arguments)');
  return { approved: true, arguments: payload.editedArgs };
}
