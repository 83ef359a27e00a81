import type { InputField, InputRequest } from '../../core/types.js';

/** What the server gets back for one question (MCP's ElicitResult): the form filled in, or declined. */
export type InputResponse = { action: 'accept'; content: Record<string, string | number | boolean> } | { action: 'decline' };

type Checked = { ok: true; answers: Record<string, InputResponse> } | { ok: false; message: string };
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The server's `inputResponses` from what a person gave `run.respond`: `null` declines every
 * question; otherwise values keyed by each question's key (`null` declines that one), or, for a
 * single question, its fields alone. Each form is checked against its schema (types, required
 * fields, enums, bounds; no field the form does not have), reading own properties only.
 */
export function checkAnswers(requests: readonly InputRequest[], values: unknown): Checked {
  if (values === null) return { ok: true, answers: declineAll(requests) };
  if (!isObject(values)) return { ok: false, message: 'the answers are not an object (or null to decline)' };
  const only = requests.length === 1 ? requests[0]! : undefined;
  const keyed = !only || (Object.keys(values).length === 1 && Object.hasOwn(values, only.key) && (values[only.key] === null || isObject(values[only.key])));
  const answers: Record<string, InputResponse> = {};
  if (keyed) {
    const unknown = Object.keys(values).find((key) => !requests.some((request) => request.key === key));
    if (unknown !== undefined) return { ok: false, message: `no question is named "${unknown.slice(0, 64)}"` };
  }
  for (const request of requests) {
    const given = keyed ? (Object.hasOwn(values, request.key) ? values[request.key] : undefined) : values;
    if (given === undefined) return { ok: false, message: `question "${request.key}" has no answer (null declines it)` };
    if (given === null) {
      own(answers, request.key, { action: 'decline' });
      continue;
    }
    const content = checkForm(request, given);
    if (typeof content === 'string') return { ok: false, message: `question "${request.key}": ${content}` };
    own(answers, request.key, { action: 'accept', content });
  }
  return { ok: true, answers };
}

/** Every question declined (a refusal). */
export function declineAll(requests: readonly InputRequest[]): Record<string, InputResponse> {
  const answers: Record<string, InputResponse> = {};
  for (const request of requests) own(answers, request.key, { action: 'decline' });
  return answers;
}

function checkForm(request: InputRequest, given: unknown): Record<string, string | number | boolean> | string {
  if (!isObject(given)) return 'its answer is not an object of fields';
  const { properties, required = [] } = request.schema;
  const stray = Object.keys(given).find((name) => !Object.hasOwn(properties, name));
  if (stray !== undefined) return `the form has no field "${stray.slice(0, 64)}"`;
  const content: Record<string, string | number | boolean> = {};
  for (const name of Object.keys(properties)) {
    const value = Object.hasOwn(given, name) ? given[name] : undefined;
    if (value === undefined || value === null) {
      if (required.includes(name)) return `the field "${name}" is required`;
      continue;
    }
    const problem = fieldProblem(properties[name]!, value);
    if (problem) return `the field "${name}" ${problem}`;
    own(content, name, value as string | number | boolean);
  }
  return content;
}

function fieldProblem(field: InputField, value: unknown): string | undefined {
  const choices = field.enum ?? field.oneOf?.map((option) => option.const);
  if (choices && !choices.includes(value as string | number))
    return `must be one of ${choices
      .map((c) => JSON.stringify(c))
      .join(', ')
      .slice(0, 300)}`;
  switch (field.type) {
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    case 'string':
      if (typeof value !== 'string') return 'must be text';
      if (field.minLength !== undefined && value.length < field.minLength) return `must be at least ${field.minLength} characters`;
      if (field.maxLength !== undefined && value.length > field.maxLength) return `must be at most ${field.maxLength} characters`;
      return undefined;
    default:
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
      if (field.type === 'integer' && !Number.isInteger(value)) return 'must be a whole number';
      if (field.minimum !== undefined && value < field.minimum) return `must be at least ${field.minimum}`;
      if (field.maximum !== undefined && value > field.maximum) return `must be at most ${field.maximum}`;
      return undefined;
  }
}

/** Set an own property, even one named `__proto__` (a plain assignment would set the prototype). */
function own<T>(target: Record<string, T>, name: string, value: T): void {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
}
