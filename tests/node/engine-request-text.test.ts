// The OpenAI-compatible engine writes a request's body with RequestText: always the text
// JSON.stringify(requestBody(...)) gives, while the frozen messages a request starts with are
// written once and reused by the next request that starts with them.
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Message } from '../../src/core/types.js';
import { openAICompatible, type OpenAICompatibleConfig } from '../../src/engines/openai/openai-compatible.js';
import { requestBody } from '../../src/engines/openai/request.js';
import { RequestText } from '../../src/engines/openai/request-text.js';
import type { EngineRequest } from '../../src/engines/types.js';
import { MemoryConversationStore } from '../../src/store/memory-conversation-store.js';

const config = (extra: Partial<Parameters<typeof openAICompatible>[0]> = {}) => openAICompatible({ baseURL: 'http://127.0.0.1:1/v1', model: 'm', ...extra });
const request = (messages: readonly Message[], more: Partial<EngineRequest> = {}): EngineRequest => ({ messages, tools: [], ...more });
const stringified = (c: OpenAICompatibleConfig, r: EngineRequest) => JSON.stringify(requestBody(c, r));

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}

const user = (content: string): Message => ({ role: 'user', content });
const asking = (id: string, args: unknown): Message => ({ role: 'assistant', content: '', toolCalls: [{ id, name: 'add', arguments: args as never }] });
const answer = (id: string): Message => ({ role: 'tool', toolCallId: id, name: 'add', content: '3' });

afterEach(() => vi.restoreAllMocks());

describe('RequestText', () => {
  const message = fc.oneof(
    fc.string().map((text) => user(text)),
    fc.record({ role: fc.constant('user' as const), content: fc.string(), origin: fc.constant('runtime' as const) }),
    fc.tuple(fc.string(), fc.jsonValue()).map(([id, args]) => asking(id, args)),
    fc.string().map((id) => answer(id)),
    fc.record({ role: fc.constant('assistant' as const), content: fc.string(), provider: fc.dictionary(fc.string(), fc.jsonValue()) }),
    fc.string().map((content) => ({ role: 'system' as const, content })),
  );
  // Each message frozen through, shallowly frozen (its parts still change), or not frozen.
  const kept = fc
    .tuple(message, fc.constantFrom('deep', 'shallow', 'none'))
    .map(([m, how]) => (how === 'deep' ? deepFreeze(m) : how === 'shallow' ? Object.freeze(m) : m));
  const configs = fc.record({
    nativeTools: fc.boolean(),
    temperature: fc.option(fc.double({ noNaN: true, noDefaultInfinity: true }), { nil: undefined }),
    extraBody: fc.option(
      fc.oneof(
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.constant({ model: 'other' }),
        fc.constant({ messages: [] }),
        fc.constant({ 7: 'an integer key goes first', seed: 1 }),
        fc.constant({ stream: undefined, stream_options: undefined }),
      ),
      { nil: undefined },
    ),
  });

  it('writes what JSON.stringify writes, request after request, as a history grows, is cut or changes', () => {
    fc.assert(
      fc.property(
        configs,
        fc.array(kept, { maxLength: 12 }),
        fc.array(fc.tuple(fc.nat(14), fc.array(kept, { maxLength: 3 })), { maxLength: 6 }),
        (options, start, steps) => {
          const c = config(options);
          const text = new RequestText(c);
          let history = start;
          expect(text.body(request(history))).toBe(stringified(c, request(history)));
          for (const [cut, added] of steps) {
            history = [...history.slice(0, cut), ...added];
            expect(text.body(request(history))).toBe(stringified(c, request(history)));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a message that is not frozen through is written again each time, with what it holds then', () => {
    const c = config();
    const text = new RequestText(c);
    const args = { a: 1 };
    const history = [deepFreeze(user('add')), Object.freeze(asking('c1', args))];
    text.body(request(history));
    args.a = 2;
    expect(text.body(request(history))).toContain('"arguments":"{\\"a\\":2}"');
  });

  it('a request that starts with the last one’s frozen messages writes only the messages after them', () => {
    const c = config();
    const text = new RequestText(c);
    const history = Array.from({ length: 50 }, (_, i) => deepFreeze(user(`message ${i}`)));
    text.body(request(history));
    const written = vi.spyOn(JSON, 'stringify');
    const next = [...history, deepFreeze(user('new')), user('not frozen')];
    expect(text.body(request(next))).toBe(stringified(c, request(next)));
    // The body's later fields, the model's name, the two new messages: 4; the 50 before were not written again.
    // (The comparison above stringifies too, after: its calls are the rest.)
    expect(written.mock.calls.slice(0, 4).map(([value]) => (typeof value === 'string' ? 'model' : ((value as { role?: string }).role ?? 'rest')))).toEqual([
      'rest',
      'model',
      'user',
      'user',
    ]);
    expect(written.mock.calls[4]?.[0]).toHaveProperty('messages');
  });

  it('a stored conversation the memory store shares frozen is reused from one run’s request to the next', async () => {
    const store = new MemoryConversationStore();
    await store.append('c', [user('1'), asking('c1', { a: 1 }), answer('c1')]);
    const c = config();
    const text = new RequestText(c);
    const first = await store.loadFrozen('c');
    text.body(request(first));
    await store.append('c', [user('2')]);
    const written = vi.spyOn(JSON, 'stringify');
    const second = await store.loadFrozen('c');
    const body = text.body(request(second));
    // The later fields, the model, and the one new stored message.
    expect(written).toHaveBeenCalledTimes(3);
    written.mockRestore();
    expect(body).toBe(stringified(c, request(second)));
  });
});
