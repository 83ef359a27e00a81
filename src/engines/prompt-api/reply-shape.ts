// What the built-in model must reply, as one JSON Schema (`responseConstraint`): the calls it may
// make, as a union of each tool's call shape, or its answer (free text, or the run's answer
// schema). The runner then runs every call under its policy: the browser's own tool loop
// (`tools` with `execute`) is never used.
import type { ToolDefinition } from '../../core/types.js';
import type { EngineRequest } from '../types.js';

/** The constraint of one request, the words that teach it, and how its answer reads. */
export interface ReplyShape {
  schema: Record<string, unknown>;
  /** Added to the system prompt. */
  instructions: string;
  /** `json`: the answer is a value of the run's answer schema, given as its JSON text; `none`: the reply must call. */
  answer: 'text' | 'json' | 'none';
  /** True: the reply is `{ calls }` or `{ answer }`; false: it is the answer's value itself. */
  envelope: boolean;
}

/**
 * The reply shape of `request`: undefined when the model may only answer in free text (no tools,
 * or `toolChoice: 'none'`, and no answer schema), so its text streams as it comes.
 */
export function replyShape(request: EngineRequest, maxCalls: number): ReplyShape | undefined {
  const tools = offeredTools(request);
  const output = request.output?.schema;
  if (tools.length === 0) {
    if (!output) return undefined;
    // The answer's own schema, whole: its JSON text is the answer.
    return { schema: output, instructions: '', answer: 'json', envelope: false };
  }
  const defs: Record<string, unknown> = {};
  const callShapes = tools.map((tool, i) => ({
    type: 'object',
    properties: { name: { type: 'string', enum: [tool.name] }, arguments: placed(tool.parameters, `tool${i}`, defs) },
    required: ['name', 'arguments'],
    additionalProperties: false,
  }));
  const calls = {
    type: 'object',
    properties: { calls: { type: 'array', minItems: 1, maxItems: maxCalls, items: callShapes.length === 1 ? callShapes[0] : { anyOf: callShapes } } },
    required: ['calls'],
    additionalProperties: false,
  };
  const mustCall = request.toolChoice === 'required' || typeof request.toolChoice === 'object';
  const answerSchema = output ? placed(output, 'answer', defs) : { type: 'string' };
  const answer = { type: 'object', properties: { answer: answerSchema }, required: ['answer'], additionalProperties: false };
  const body = mustCall ? calls : { anyOf: [calls, answer] };
  const schema = Object.keys(defs).length > 0 ? { ...body, $defs: defs } : body;
  return { schema, instructions: teach(tools, mustCall), answer: mustCall ? 'none' : output ? 'json' : 'text', envelope: true };
}

/** The tools the model may call on this request (`toolChoice` narrows them). */
function offeredTools(request: EngineRequest): readonly ToolDefinition[] {
  const choice = request.toolChoice;
  if (choice === 'none') return [];
  if (typeof choice === 'object') return request.tools.filter((tool) => tool.name === choice.name);
  return request.tools;
}

/**
 * `schema` where it can sit inside the union: inline, unless it refers to its own parts (`$ref`
 * starting with `#`), which would then point into the union; such a schema moves to `$defs[name]`,
 * its references rewritten to point there.
 */
function placed(schema: object, name: string, defs: Record<string, unknown>): Record<string, unknown> {
  if (!refersToItself(schema)) return schema as Record<string, unknown>;
  defs[name] = rebased(schema, `#/$defs/${name}`);
  return { $ref: `#/$defs/${name}` };
}

function refersToItself(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(refersToItself);
  for (const [key, inner] of Object.entries(value)) {
    if (key === '$ref' && typeof inner === 'string' && inner.startsWith('#')) return true;
    if (refersToItself(inner)) return true;
  }
  return false;
}

/** A copy of `value` whose local references (`#…`) start at `base` instead of the root. */
function rebased(value: unknown, base: string): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => rebased(item, base));
  const copy: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    // Own keys only, `__proto__` included, as data.
    const next = key === '$ref' && typeof inner === 'string' && inner.startsWith('#') ? base + inner.slice(1) : rebased(inner, base);
    Object.defineProperty(copy, key, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

function teach(tools: readonly ToolDefinition[], mustCall: boolean): string {
  const list = tools.map((tool) => `- ${tool.name}: ${tool.description}`).join('\n');
  const answer = mustCall ? '' : '\n- {"answer": …} when you have the answer for the person.';
  return `You can call tools. Reply with JSON only:\n- {"calls": [{"name": "<tool>", "arguments": {…}}]} to call tools; their results come back to you.${answer}\nTools:\n${list}`;
}

/** What a constrained reply says: the answer's text, or the calls. */
export interface ReadReply {
  text: string;
  calls: Array<{ name: string; arguments: unknown }>;
}

/** Read a constrained reply; undefined when it is not JSON of the shape (a reply cut short, say). */
export function readReply(raw: string, shape: ReplyShape): ReadReply | undefined {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (!shape.envelope) return { text: raw.trim(), calls: [] };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { calls, answer } = value as { calls?: unknown; answer?: unknown };
  if (Array.isArray(calls)) {
    const read = calls.filter(
      (call): call is { name: string; arguments?: unknown } => typeof call === 'object' && call !== null && typeof call.name === 'string',
    );
    return { text: '', calls: read.map((call) => ({ name: call.name, arguments: call.arguments ?? {} })) };
  }
  if (answer === undefined || shape.answer === 'none') return undefined;
  return { text: shape.answer === 'text' && typeof answer === 'string' ? answer : JSON.stringify(answer), calls: [] };
}
