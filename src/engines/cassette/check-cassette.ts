// A cassette read from a file is data from anywhere: checked whole before a request is served, so
// that replay never hands the runner something `cassette()` would not have written.
import { AmbiError } from '../../errors/ambi-error.js';
import { CASSETTE_KIND, type Cassette } from './cassette.js';

/** How deep a cassette's JSON may nest (a request's arguments stop at 64; schemas and provider fields add a little). */
const MAX_DEPTH = 256;
/** How many values (strings, numbers, objects…) a cassette may hold in all: far more than any recording, far less than a hang. */
const MAX_VALUES = 10_000_000;

type Check = (value: unknown, path: string) => void;

/** Throw `invalid_cassette`, naming the first thing wrong (a JSON Pointer), unless `value` is a cassette `cassette()` could have written. */
export function checkCassette(value: unknown): asserts value is Cassette {
  json(value, '');
  const cassette = object(value, '');
  if (cassette.kind !== CASSETTE_KIND) fail('/kind', `must be "${CASSETTE_KIND}"`);
  if (cassette.version !== 1) fail('/version', 'must be 1 (the only version this ambi-web reads)');
  const engine = object(cassette.engine, '/engine');
  string(engine.provider, '/engine/provider');
  optional(engine.model, '/engine/model', string);
  if (typeof engine.nativeTools !== 'boolean') fail('/engine/nativeTools', 'must be a boolean');
  array(cassette.interactions, '/interactions').forEach((interaction, i) => checkInteraction(interaction, `/interactions/${i}`));
  optional(cassette.parts, '/parts', (parts, at) => {
    for (const [ref, part] of Object.entries(object(parts, at))) {
      const path = `${at}/${ref}`;
      if (!/^sha256:[0-9a-f]{64}$/.test(ref)) fail(path, 'must be named sha256:<64 hex digits>');
      string(object(part, path).mediaType, `${path}/mediaType`);
      string((part as Record<string, unknown>).data, `${path}/data`);
    }
  });
}

/** A recorded part: text, or an image or file named by its hash (or its URL). */
function checkPart(value: unknown, path: string, text: boolean): void {
  const part = object(value, path);
  if (part.type === 'text' && text) return string(part.text, `${path}/text`);
  if (part.type === 'image') return string(part.image, `${path}/image`);
  if (part.type !== 'file') return fail(`${path}/type`, text ? 'must be "text", "image" or "file"' : 'must be "image" or "file"');
  string(part.data, `${path}/data`);
  string(part.mediaType, `${path}/mediaType`);
}

function checkInteraction(value: unknown, path: string): void {
  const interaction = object(value, path);
  const request = object(interaction.request, `${path}/request`);
  array(request.messages, `${path}/request/messages`).forEach((message, i) => checkMessage(message, `${path}/request/messages/${i}`));
  array(request.tools, `${path}/request/tools`).forEach((tool, i) => {
    const at = `${path}/request/tools/${i}`;
    const definition = object(tool, at);
    string(definition.name, `${at}/name`);
    string(definition.description, `${at}/description`);
    object(definition.parameters, `${at}/parameters`);
  });
  optional(request.toolChoice, `${path}/request/toolChoice`, (choice, at) => {
    if (choice === 'auto' || choice === 'required' || choice === 'none') return;
    string(object(choice, at).name, `${at}/name`);
  });
  optional(request.output, `${path}/request/output`, (output, at) => {
    string(object(output, at).name, `${at}/name`);
    object((output as Record<string, unknown>).schema, `${at}/schema`);
  });
  optional(request.callTags, `${path}/request/callTags`, (tags, at) => {
    string(object(tags, at).open, `${at}/open`);
    string((tags as Record<string, unknown>).close, `${at}/close`);
  });
  const response = object(interaction.response, `${path}/response`);
  if ('error' in response) {
    const error = object(response.error, `${path}/response/error`);
    string(error.code, `${path}/response/error/code`);
    string(error.message, `${path}/response/error/message`);
    optional(error.status, `${path}/response/error/status`, count);
    optional(error.retryAfterMs, `${path}/response/error/retryAfterMs`, count);
    return;
  }
  array(response.events, `${path}/response/events`).forEach((event, i) => checkEvent(event, `${path}/response/events/${i}`));
}

function checkMessage(value: unknown, path: string): void {
  const message = object(value, path);
  if (message.role === 'user' && Array.isArray(message.content)) message.content.forEach((part, i) => checkPart(part, `${path}/content/${i}`, true));
  else string(message.content, `${path}/content`);
  switch (message.role) {
    case 'system':
      return;
    case 'user':
      optional(message.origin, `${path}/origin`, (origin, at) => origin === 'runtime' || origin === 'user' || fail(at, 'must be "user" or "runtime"'));
      return;
    case 'assistant':
      optional(message.toolCalls, `${path}/toolCalls`, (calls, at) => array(calls, at).forEach((call, i) => checkCall(call, `${at}/${i}`)));
      optional(message.provider, `${path}/provider`, object);
      return;
    case 'tool':
      string(message.toolCallId, `${path}/toolCallId`);
      string(message.name, `${path}/name`);
      optional(message.parts, `${path}/parts`, (parts, at) => array(parts, at).forEach((part, i) => checkPart(part, `${at}/${i}`, false)));
      return;
    default:
      fail(`${path}/role`, 'must be "system", "user", "assistant" or "tool"');
  }
}

function checkCall(value: unknown, path: string): void {
  const call = object(value, path);
  string(call.id, `${path}/id`);
  string(call.name, `${path}/name`);
  if (!('arguments' in call)) fail(`${path}/arguments`, 'is missing');
  optional(call.provider, `${path}/provider`, object);
}

function checkEvent(value: unknown, path: string): void {
  const event = object(value, path);
  switch (event.type) {
    case 'text':
      return string(event.text, `${path}/text`);
    case 'tool_call':
      return checkCall(event.call, `${path}/call`);
    case 'usage': {
      const usage = object(event.usage, `${path}/usage`);
      for (const key of ['promptTokens', 'completionTokens', 'totalTokens'])
        if (typeof usage[key] !== 'number') fail(`${path}/usage/${key}`, 'must be a number');
      return;
    }
    case 'finish':
      string(event.reason, `${path}/reason`);
      return optional(event.provider, `${path}/provider`, object);
    case 'warning':
      string(event.code, `${path}/code`);
      return string(event.message, `${path}/message`);
    default:
      fail(`${path}/type`, 'must be "text", "tool_call", "usage", "finish" or "warning"');
  }
}

/**
 * Only what JSON holds (no function, no Infinity), nested at most MAX_DEPTH deep (a cycle nests
 * without end), at most MAX_VALUES values (an object shared many times counts each time):
 * checked without recursion.
 */
function json(root: unknown, rootPath: string): void {
  const stack: Array<[unknown, string, number]> = [[root, rootPath, 0]];
  let values = 0;
  while (stack.length > 0) {
    if (++values > MAX_VALUES) fail(rootPath, `holds more than ${MAX_VALUES} values`);
    const [value, path, depth] = stack.pop()!;
    if (value === null || typeof value === 'string' || typeof value === 'boolean') continue;
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) fail(path, 'must be a finite number');
      continue;
    }
    if (typeof value !== 'object') fail(path, `is a ${typeof value}, which JSON cannot hold`);
    if (depth >= MAX_DEPTH) fail(path, `nests deeper than ${MAX_DEPTH} levels`);
    const entries = Array.isArray(value) ? value.map((item, i): [string, unknown] => [String(i), item]) : Object.entries(value as object);
    for (const [key, item] of entries) stack.push([item, `${path}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`, depth + 1]);
  }
}

function object(value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(path, 'must be an object');
  return value as Record<string, unknown>;
}

function array(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) fail(path, 'must be an array');
  return value as unknown[];
}

function string(value: unknown, path: string): void {
  if (typeof value !== 'string') fail(path, 'must be a string');
}

function count(value: unknown, path: string): void {
  if (!Number.isSafeInteger(value) || (value as number) < 0) fail(path, 'must be a whole number >= 0');
}

function optional(value: unknown, path: string, check: Check): void {
  if (value !== undefined) check(value, path);
}

function fail(path: string, what: string): never {
  throw new AmbiError('invalid_cassette', `The cassette is not one ambi-web can replay: ${path || '(the cassette)'} ${what}`);
}
