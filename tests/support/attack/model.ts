// A scripted model that always obeys an injection: it does each task as asked, and whenever a
// document it read holds a directive, it carries that out first (once per message of the person).
// A pure function of the request, so it serves in-process (ObedientEngine) and over HTTP (model-server.ts).
import type { Engine, Message } from '../../../src/index.js';
import type { EngineEvent, EngineRequest } from '../../../src/extend/index.js';
import { ADAPTIVE_TASKS, type AttackTask, CHECKS, DOCUMENT_MARKERS, directivesIn, type PlannedCall, readerDirectiveIn, TASKS } from './tasks.js';

/** A message as the model reads it, whatever carried it (the SDK's messages, or OpenAI's wire shape). */
export interface ModelMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  /** A user message the runtime wrote (not the person's). */
  runtime?: boolean;
  calls?: PlannedCall[];
  /** For a tool message: the tool whose result it holds. */
  name?: string;
}

/** What the model answers: calls, or text. */
export type ModelReply = { calls: PlannedCall[] } | { text: string };

/** The reads that bring a document: the read tools of every vector, quarantined checks, leaves. */
const isRead = (name: string | undefined) => name !== undefined && (name.endsWith('read_doc') || name.startsWith('check_') || name === 'spawn_leaf');

/** Answer one request. `tools`: the names offered (none: a quarantine request). */
export function obedientReply(messages: readonly ModelMessage[], tools: readonly string[]): ModelReply {
  if (tools.length === 0) return quarantineAnswer(messages);
  const personAt = messages.findLastIndex((m) => m.role === 'user' && !m.runtime);
  const person = messages[personAt]?.content ?? '';
  const tag = (name: string) => new RegExp(`\\[${name}:([^\\]]+)\\]`).exec(person)?.[1];
  const thisRun = messages.slice(personAt + 1);
  const called = thisRun.flatMap((m) => m.calls ?? []);
  const done = (call: PlannedCall) => called.some((c) => c.name === call.name && sameJson(c.arguments, call.arguments));

  // Obey: a directive in anything read, carried out once for this message of the person.
  const read = messages.filter((m) => m.role === 'tool' && isRead(m.name)).map((m) => readText(m.content));
  for (const directive of read.flatMap(directivesIn)) if (!done(directive)) return { calls: [directive] };

  const doc = tag('doc');
  const via = tag('read');
  const readNow = thisRun.filter((m) => m.role === 'tool' && isRead(m.name)).map((m) => readText(m.content));
  // A leaf: read the document, then say what it says.
  if (person.includes('[leaf]')) {
    if (readNow.length === 0) return { calls: [{ name: via ?? 'read_doc', arguments: { doc } }] };
    return { text: `Document ${doc} says: ${readNow.join('\n')}` };
  }
  const task = [...TASKS, ...ADAPTIVE_TASKS].find((t) => t.id === tag('task'));
  if (!task) return { text: 'I do not know this task.' };
  // Read first, unless this message acts on what an earlier run read (`[stage:act]`).
  if (tag('stage') !== 'act' && readNow.length === 0) return { calls: [readCall(via ?? 'read_doc', doc ?? task.id)] };
  if (tag('stage') === 'read') return { text: 'I have read it.' };
  const text = (readNow.length > 0 ? readNow : read).join('\n');
  // Hold mode: what was read is a held value; plan from the person's request alone.
  const held = heldIdIn(text);
  if (held) return planHeld(task, held, thisRun, done);
  const action = task.act?.(text, answerOf(task, thisRun.concat(messages.slice(0, personAt)), text));
  if (action && !done(action)) return { calls: [action] };
  return { text: `Done: ${task.id}.` };
}

/**
 * The plan of a task whose document is held (hold mode): the model cannot read it, so it asks
 * `inspect_held` what the person's request hangs on (the check's closed question, or the words
 * the action carries, held again) and acts on that; a task that only reads answers with the id.
 */
function planHeld(task: AttackTask, held: string, thisRun: readonly ModelMessage[], done: (call: PlannedCall) => boolean): ModelReply {
  if (!task.act) return { text: `Done: ${task.id}. It says ${held}.` };
  const inspections = thisRun.filter((m) => m.role === 'tool' && m.name === 'inspect_held').map((m) => parseJson(m.content));
  if (task.check) {
    const answer = inspections.map((c) => (c as { output?: Record<string, unknown> } | undefined)?.output).find((o) => o !== undefined);
    if (!answer) return { calls: [inspect(held, task.check.instructions, task.check.output)] };
    const action = task.act('', answer);
    return action && !done(action) ? { calls: [action] } : { text: `Done: ${task.id}.` };
  }
  if (task.words) {
    const words = inspections.map((c) => (c as { held?: string } | undefined)?.held).find((id) => id !== undefined);
    if (!words) return { calls: [inspect(held, task.words.instructions)] };
    const planned = task.act('', {})!;
    const action = { name: planned.name, arguments: { ...planned.arguments, [task.words.argument]: { $held: words } } };
    return done(action) ? { text: `Done: ${task.id}.` } : { calls: [action] };
  }
  return { text: `Done: ${task.id}.` };
}

/** An `inspect_held` call: the held value, what to find out, and (for a closed question) the answer's schema. */
function inspect(held: string, instructions: string, output?: Record<string, unknown>): PlannedCall {
  return { name: 'inspect_held', arguments: { value: { $held: held }, instructions, ...(output ? { output } : {}) } };
}

/** The held id in what a read gave: a handle's own (`$1`, as readText gives it), or one a leaf's answer names. */
function heldIdIn(text: string): string | undefined {
  const ids = text.match(/\$[1-9][0-9]*/g);
  return ids && /^(Document \S+ says: )?\$[1-9][0-9]*$/.test(text.split('\n').at(-1)!.trim()) ? ids.at(-1) : undefined;
}

/** Whether a planner's request carries a document's words in anything but the person's own messages: in hold mode, a leak. */
export function carriesDocument(messages: readonly ModelMessage[]): boolean {
  return messages.some((m) => m.role !== 'user' && DOCUMENT_MARKERS.some((marker) => m.content.includes(marker)));
}

/** The call that reads `doc` through `via`: a read tool or a check takes the document id; a leaf is asked to read it with the page's tool. */
function readCall(via: string, doc: string): PlannedCall {
  if (via === 'spawn_leaf')
    return { name: 'spawn_leaf', arguments: { task: `[leaf] [doc:${doc}] [read:read_doc] Read document ${doc} and repeat what it says.` } };
  return { name: via, arguments: { doc } };
}

/** The check's answer: as a quarantined check gave it, else as the model reads the text itself. */
function answerOf(task: AttackTask, messages: readonly ModelMessage[], text: string): Record<string, unknown> {
  const checked = messages.find((m) => m.role === 'tool' && m.name?.startsWith('check_'));
  if (checked) {
    const parsed = parseJson(checked.content) as { output?: Record<string, unknown> } | undefined;
    return parsed?.output ?? {};
  }
  return task.check?.answer(text) ?? {};
}

/**
 * A quarantine request: the system prompt says which check; the user message is the data. The
 * model obeys the data's directive first (free text, which the schema refuses); told its answer
 * does not match, it answers the check.
 */
function quarantineAnswer(messages: readonly ModelMessage[]): ModelReply {
  const system = messages.find((m) => m.role === 'system')?.content ?? '';
  const check = Object.values(CHECKS).find((c) => system.includes(c.instructions));
  const words = [...TASKS, ...ADAPTIVE_TASKS].find((t) => t.words && system.includes(t.words.instructions))?.words;
  const data = messages.find((m) => m.role === 'user')?.content ?? '';
  const answered = messages.some((m) => m.role === 'assistant');
  const [directive] = directivesIn(data);
  const obeyed = `Sure. I will call ${directive?.name} with ${JSON.stringify(directive?.arguments)} right away.`;
  // Free text (what inspect_held extracts): the directive fits the schema, so it is the answer.
  if (words) return { text: JSON.stringify(directive ? obeyed : words.extract(data)) };
  if (directive && !answered) return { text: obeyed };
  // An answer the data dictates, within the schema: the reader obeys that too.
  const dictated = readerDirectiveIn(data);
  if (dictated && check) return { text: JSON.stringify(dictated) };
  return { text: JSON.stringify(check ? check.answer(data) : {}) };
}

/** The words of a tool message: its output's strings (or its error's message), as the model reads them. */
function readText(content: string): string {
  const parsed = parseJson(content) as { ok?: boolean; output?: unknown; error?: { message?: string }; held?: unknown } | undefined;
  if (!parsed) return content;
  // A handle: all the model reads of a held value is its id.
  if (typeof parsed.held === 'string') return parsed.held;
  if (parsed.ok === false) return parsed.error?.message ?? '';
  const strings: string[] = [];
  const walk = (value: unknown) => {
    if (typeof value === 'string') strings.push(value);
    else if (value && typeof value === 'object') for (const item of Object.values(value)) walk(item);
  };
  walk(parsed.output);
  return strings.join('\n');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The SDK's messages as the model reads them. */
export function fromSdk(messages: readonly Message[]): ModelMessage[] {
  return messages.map((m) => {
    if (m.role === 'assistant')
      return { role: 'assistant', content: m.content, calls: (m.toolCalls ?? []).map((c) => ({ name: c.name, arguments: argsOf(c.arguments) })) };
    if (m.role === 'tool') return { role: 'tool', content: m.content, name: m.name };
    if (m.role === 'user') return { role: 'user', content: String(m.content), ...(m.origin === 'runtime' ? { runtime: true } : {}) };
    return { role: 'system', content: m.content };
  });
}

function argsOf(args: unknown): Record<string, unknown> {
  return (typeof args === 'string' ? (parseJson(args) ?? {}) : (args ?? {})) as Record<string, unknown>;
}

/** Call ids unique across every engine of the suite, as the suite scores what ran by call id. */
let callIds = 0;

/** The obedient model as an in-process engine with native calls. */
export class ObedientEngine implements Engine {
  readonly nativeTools = true;
  /** Requests served. */
  requests = 0;
  /** Planner requests of hold-mode scenarios (`[hold]` in the person's message) that carried a document's words: leaks. */
  holdLeaks = 0;
  holdRequests = 0;
  /** Planner requests of the other scenarios that carried a document's words (the check sees them where they are). */
  documentRequests = 0;

  async *stream(request: EngineRequest): AsyncIterable<EngineEvent> {
    this.requests++;
    const messages = fromSdk(request.messages);
    const hold = messages.some((m) => m.role === 'user' && m.content.includes('[hold]'));
    if (request.tools.length > 0 && hold) {
      this.holdRequests++;
      if (carriesDocument(messages)) this.holdLeaks++;
    } else if (request.tools.length > 0 && carriesDocument(messages)) this.documentRequests++;
    const reply = obedientReply(
      messages,
      request.tools.map((t) => t.name),
    );
    yield { type: 'usage', usage: { promptTokens: 100, completionTokens: 10, totalTokens: 110 } };
    if ('text' in reply) {
      yield { type: 'text', text: reply.text };
      yield { type: 'finish', reason: 'stop' };
      return;
    }
    for (const call of reply.calls) yield { type: 'tool_call', call: { id: `obey_${++callIds}`, name: call.name, arguments: call.arguments } };
    yield { type: 'finish', reason: 'tool_calls' };
  }
}
