import type { InputField, InputRequest, InputSchema } from '../../core/types.js';

/** What one server's question may hold, at most: a form a person can read, and that cannot flood a page or a store. */
export const INPUT_LIMITS = {
  /** Questions in one `input_required` answer. */
  requests: 8,
  /** Fields in one form. */
  fields: 32,
  /** Characters of a question's message (a longer one is cut, marked). */
  messageChars: 2_000,
  /** Characters of a field's title or description, and of a field's name. */
  labelChars: 500,
  nameChars: 64,
  /** Choices of one enum, and characters of each. */
  choices: 100,
  choiceChars: 200,
} as const;

const FIELD_TYPES: ReadonlySet<unknown> = new Set(['string', 'number', 'integer', 'boolean']);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The questions of an `input_required` answer as a person can be shown them, or what makes them
 * unshowable. Only form elicitations (`elicitation/create`, mode `form`) are asked: this client
 * declares no other kind. A form is MCP's restricted schema: one level of fields, each a string,
 * number, integer or boolean, optionally an enum; anything else (nesting, arrays, references) and
 * anything past INPUT_LIMITS is refused whole, never shown in part. Fields are read as own
 * properties only, so `__proto__` is a field like any other.
 */
export function inputRequests(raw: unknown): { ok: true; requests: InputRequest[] } | { ok: false; message: string } {
  if (!isObject(raw)) return { ok: false, message: 'its input requests are not an object' };
  const keys = Object.keys(raw);
  if (keys.length === 0) return { ok: false, message: 'it asked for input but sent no request' };
  if (keys.length > INPUT_LIMITS.requests) return { ok: false, message: `it asked ${keys.length} questions at once (at most ${INPUT_LIMITS.requests})` };
  const requests: InputRequest[] = [];
  for (const key of keys) {
    if (key.length > INPUT_LIMITS.nameChars) return { ok: false, message: 'a request key is too long' };
    const request = raw[key];
    if (!isObject(request) || request.method !== 'elicitation/create' || !isObject(request.params))
      return { ok: false, message: `request "${key}" is not a form to fill (${isObject(request) ? String(request.method).slice(0, 40) : 'not an object'})` };
    const { params } = request;
    if (params.mode !== undefined && params.mode !== 'form')
      return { ok: false, message: `request "${key}" is a ${String(params.mode).slice(0, 20)} elicitation, not a form` };
    const schema = formSchema(params.requestedSchema);
    if (typeof schema === 'string') return { ok: false, message: `request "${key}": ${schema}` };
    const message = typeof params.message === 'string' ? params.message : '';
    requests.push({ key, message: cut(message, INPUT_LIMITS.messageChars), schema });
  }
  return { ok: true, requests };
}

/** The form's schema, rebuilt from what it may hold only (unknown keywords dropped), or why it cannot be shown. */
function formSchema(raw: unknown): InputSchema | string {
  if (!isObject(raw) || raw.type !== 'object' || !isObject(raw.properties)) return 'its form is not an object schema with properties';
  const names = Object.keys(raw.properties);
  if (names.length > INPUT_LIMITS.fields) return `its form has ${names.length} fields (at most ${INPUT_LIMITS.fields})`;
  const properties: Record<string, InputField> = {};
  for (const name of names) {
    if (name.length > INPUT_LIMITS.nameChars) return 'a field name is too long';
    const field = formField(raw.properties[name]);
    if (typeof field === 'string') return `field "${name.slice(0, INPUT_LIMITS.nameChars)}" ${field}`;
    // An own property even for `__proto__`: the form has the field the server named.
    Object.defineProperty(properties, name, { value: field, enumerable: true, writable: true, configurable: true });
  }
  const required = raw.required;
  if (required !== undefined && (!Array.isArray(required) || !required.every((name) => typeof name === 'string' && Object.hasOwn(properties, name))))
    return "its form's required fields are not among its fields";
  return { type: 'object', properties, ...(required && required.length > 0 ? { required: [...(required as string[])] } : {}) };
}

function formField(raw: unknown): InputField | string {
  if (!isObject(raw) || !FIELD_TYPES.has(raw.type)) return 'is not a string, number, integer or boolean';
  const field: InputField = { type: raw.type as InputField['type'] };
  for (const label of ['title', 'description', 'format'] as const) {
    const value = raw[label];
    if (value === undefined) continue;
    if (typeof value !== 'string') return `has a ${label} that is not text`;
    field[label] = cut(value, INPUT_LIMITS.labelChars);
  }
  for (const bound of ['minimum', 'maximum', 'minLength', 'maxLength'] as const) {
    const value = raw[bound];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value)) return `has a ${bound} that is not a number`;
    field[bound] = value;
  }
  const choices = choicesOf(raw, field.type);
  if (typeof choices === 'string') return choices;
  Object.assign(field, choices);
  if (raw.default !== undefined) {
    const fits =
      field.type === 'boolean' ? typeof raw.default === 'boolean' : field.type === 'string' ? typeof raw.default === 'string' : typeof raw.default === 'number';
    if (fits) field.default = raw.default as string | number | boolean;
  }
  return field;
}

/** A field's choices (`enum`, or a titled `oneOf`), within bounds and of the field's type. */
function choicesOf(raw: Record<string, unknown>, type: InputField['type']): Pick<InputField, 'enum' | 'oneOf'> | string {
  const fits = (value: unknown) =>
    type === 'string'
      ? typeof value === 'string' && value.length <= INPUT_LIMITS.choiceChars
      : (type === 'number' || type === 'integer') && typeof value === 'number';
  if (raw.enum !== undefined) {
    if (!Array.isArray(raw.enum) || raw.enum.length === 0 || raw.enum.length > INPUT_LIMITS.choices || !raw.enum.every(fits))
      return `has an enum this client cannot show (1 to ${INPUT_LIMITS.choices} choices of its type)`;
    return { enum: [...(raw.enum as (string | number)[])] };
  }
  if (raw.oneOf !== undefined) {
    const options = raw.oneOf;
    if (!Array.isArray(options) || options.length === 0 || options.length > INPUT_LIMITS.choices) return 'has a oneOf this client cannot show';
    const oneOf: NonNullable<InputField['oneOf']> = [];
    for (const option of options) {
      if (!isObject(option) || !fits(option.const) || (option.title !== undefined && typeof option.title !== 'string'))
        return 'has a oneOf this client cannot show';
      oneOf.push({
        const: option.const as string | number,
        ...(typeof option.title === 'string' ? { title: cut(option.title, INPUT_LIMITS.choiceChars) } : {}),
      });
    }
    return { oneOf };
  }
  return {};
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [cut: ${text.length} characters in all]`;
}
