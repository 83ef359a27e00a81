import { describe, expect, it } from 'vitest';
import { callsOf, collect, useSseServer } from './engine-test-helpers.js';
import { chunk, DONE } from './sse-server.js';

const local = useSseServer();
const { engineFor } = local;

describe('native tool calls without an index', () => {
  it('keeps two calls that share an id apart: each id-and-name delta starts a call', async () => {
    const engine = await engineFor(() => ({
      pieces: [
        chunk({ tool_calls: [{ id: 'same', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Berlin"}' } }] }),
        chunk({ tool_calls: [{ id: 'same', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] }),
        chunk({}, 'tool_calls'),
        DONE,
      ],
    }));
    expect(callsOf(await collect(engine))).toEqual([
      { id: 'same', name: 'get_weather', arguments: { city: 'Berlin' } },
      { id: 'same', name: 'get_weather', arguments: { city: 'Paris' } },
    ]);
  });

  it('keeps them apart when their arguments stream in later pieces that carry the id alone', async () => {
    const engine = await engineFor(() => ({
      pieces: [
        chunk({ tool_calls: [{ id: 'dup', function: { name: 'a', arguments: '{"n":' } }] }),
        chunk({ tool_calls: [{ id: 'dup', function: { arguments: '1}' } }] }),
        chunk({ tool_calls: [{ id: 'dup', function: { name: 'b', arguments: '' } }] }),
        chunk({ tool_calls: [{ id: 'dup', function: { arguments: '{"n":2}' } }] }),
        chunk({}, 'tool_calls'),
      ],
    }));
    expect(callsOf(await collect(engine))).toEqual([
      { id: 'dup', name: 'a', arguments: { n: 1 } },
      { id: 'dup', name: 'b', arguments: { n: 2 } },
    ]);
  });

  it('still joins a name that arrives after the id to the call the id opened', async () => {
    const engine = await engineFor(() => ({
      pieces: [
        chunk({ tool_calls: [{ id: 'late', function: { arguments: '' } }] }),
        chunk({ tool_calls: [{ id: 'late', function: { name: 'now', arguments: '{}' } }] }),
        chunk({}, 'tool_calls'),
      ],
    }));
    expect(callsOf(await collect(engine))).toEqual([{ id: 'late', name: 'now', arguments: {} }]);
  });
});
