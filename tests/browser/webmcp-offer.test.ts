// offerWebMcpTools in real Chromium (--enable-features=WebMCPTesting): our tools, called as a browser agent calls them.
import { afterEach, describe, expect, it } from 'vitest';
import { defineTool, isAmbiError, offerWebMcpTools, webMcpAvailable } from '../../src/index.js';
import * as pageEntry from '../../src/worker/index.js';
import { callAsAgent, cleanupSignal, listedTool, pageToolNames, recordExecutes, rejectionOf } from './webmcp-helpers.js';

const cleanup = cleanupSignal();
let recorder: ReturnType<typeof recordExecutes> | undefined;
afterEach(() => {
  cleanup.withdraw();
  recorder?.stop();
  recorder = undefined;
});

const ran: unknown[] = [];
afterEach(() => {
  ran.length = 0;
});

const findNote = defineTool({
  name: 'find_note',
  description: 'Find a note by title',
  parameters: {
    type: 'object',
    properties: { title: { type: 'string' }, limit: { type: 'integer', default: 5 } },
    required: ['title'],
    additionalProperties: false,
  },
  readOnly: true,
  idempotent: true,
  call: (args) => {
    ran.push(args);
    return { found: args.title, limit: args.limit };
  },
});

const deleteNote = defineTool({
  name: 'delete_note',
  description: 'Delete a note',
  parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  idempotent: false,
  needsApproval: true,
  call: (args) => {
    ran.push(args);
    return `deleted ${args.id}`;
  },
});

describe('offerWebMcpTools', () => {
  it('is available in this Chromium, from both entries', () => {
    expect(webMcpAvailable()).toBe(true);
    expect(pageEntry.webMcpAvailable()).toBe(true);
    expect(pageEntry.offerWebMcpTools).toBe(offerWebMcpTools);
  });

  it('registers a tool a browser agent finds with getTools, with its schema and readOnlyHint', async () => {
    const result = await offerWebMcpTools([findNote], { signal: cleanup.signal });
    expect(result).toEqual({ offered: ['find_note'], skipped: [] });
    const listed = await listedTool('find_note');
    expect(listed.description).toBe('Find a note by title');
    expect(listed.inputSchema).toEqual(findNote.parameters);
    expect(listed.annotations?.readOnlyHint).toBe(true);
  });

  it('runs a valid call through the ToolManager: executeTool gets the output as JSON text, defaults filled in', async () => {
    await offerWebMcpTools([findNote], { signal: cleanup.signal });
    const text = await callAsAgent('find_note', { title: 'groceries' });
    expect(JSON.parse(text)).toEqual({ found: 'groceries', limit: 5 });
    expect(ran).toEqual([{ title: 'groceries', limit: 5 }]);
  });

  it('refuses invalid arguments before the tool runs, with an error that starts with invalid_arguments', async () => {
    recorder = recordExecutes();
    await offerWebMcpTools([findNote], { signal: cleanup.signal });
    expect(await rejectionOf(callAsAgent('find_note', { title: 42 }))).toBe('UnknownError');
    const direct = await recorder
      .get('find_note')({ title: 42 })
      .catch((error: unknown) => error);
    expect(isAmbiError(direct, 'invalid_arguments')).toBe(true);
    expect((direct as Error).message).toMatch(/^invalid_arguments: Invalid arguments for "find_note"/);
    expect(ran).toEqual([]);
  });

  it('skips an approval-gated tool when the page gives no approve', async () => {
    const result = await offerWebMcpTools([findNote, deleteNote], { signal: cleanup.signal });
    expect(result).toEqual({ offered: ['find_note'], skipped: ['delete_note'] });
    expect(await pageToolNames()).not.toContain('delete_note');
  });

  it('runs an approval-gated call once approve resolves true, and asks with the validated arguments', async () => {
    const asked: unknown[] = [];
    const approve = async (request: unknown) => {
      asked.push(request);
      return true;
    };
    const result = await offerWebMcpTools([deleteNote], { signal: cleanup.signal, approve });
    expect(result.offered).toEqual(['delete_note']);
    // Chromium hands a string result over as is, anything else as JSON text.
    expect(await callAsAgent('delete_note', { id: 'n1' })).toBe('deleted n1');
    expect(asked).toEqual([{ name: 'delete_note', arguments: { id: 'n1' } }]);
    expect(ran).toEqual([{ id: 'n1' }]);
  });

  it('does not run a call that approve turns down: the caller gets denied', async () => {
    recorder = recordExecutes();
    await offerWebMcpTools([deleteNote], { signal: cleanup.signal, approve: () => false });
    expect(await rejectionOf(callAsAgent('delete_note', { id: 'n1' }))).toBe('UnknownError');
    const direct = await recorder
      .get('delete_note')({ id: 'n2' })
      .catch((error: unknown) => error);
    expect((direct as Error).message).toMatch(/^denied: /);
    expect(ran).toEqual([]);
  });

  it('asks only when a needsApproval rule says so for the arguments', async () => {
    const asked: unknown[] = [];
    const archive = defineTool({
      name: 'archive',
      description: 'Archive notes',
      parameters: { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] },
      idempotent: false,
      needsApproval: ({ count }) => count > 10,
      call: ({ count }) => `archived ${count}`,
    });
    await offerWebMcpTools([archive], {
      signal: cleanup.signal,
      approve: (request) => {
        asked.push(request);
        return true;
      },
    });
    expect(await callAsAgent('archive', { count: 3 })).toBe('archived 3');
    expect(await callAsAgent('archive', { count: 30 })).toBe('archived 30');
    expect(asked).toEqual([{ name: 'archive', arguments: { count: 30 } }]);
  });

  it('asks for a rule that returns anything truthy, or throws, as the runner does: never runs such a call unasked', async () => {
    recorder = recordExecutes();
    const asked: string[] = [];
    const rules: Array<[string, () => boolean]> = [
      ['truthy', () => 'yes' as unknown as boolean],
      ['one', () => 1 as unknown as boolean],
      [
        'throws',
        () => {
          throw new Error('cannot tell');
        },
      ],
    ];
    const tools = rules.map(([name, rule]) =>
      defineTool({
        name: `rule_${name}`,
        description: 'x',
        parameters: { type: 'object', properties: { n: { type: 'integer' } } },
        idempotent: false,
        needsApproval: rule,
        call: () => (ran.push(name), 'ran'),
      }),
    );
    await offerWebMcpTools(tools, {
      signal: cleanup.signal,
      approve: ({ name }) => {
        asked.push(name);
        return false;
      },
    });
    for (const [name] of rules) {
      const refused = await recorder
        .get(`rule_${name}`)({ n: 1 })
        .catch((error: unknown) => error);
      expect((refused as Error).message, name).toMatch(/^denied: /);
    }
    expect(asked).toEqual(['rule_truthy', 'rule_one', 'rule_throws']);
    expect(ran).toEqual([]);
  });

  it('withdraws every offered tool when the signal aborts, and aborts a call still running', async () => {
    const offer = new AbortController();
    let seen: AbortSignal | undefined;
    const wait = defineTool({
      name: 'wait_for_it',
      description: 'Waits',
      parameters: { type: 'object' },
      idempotent: true,
      call: (_args, { signal }) => {
        seen = signal;
        return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
      },
    });
    await offerWebMcpTools([findNote, wait], { signal: offer.signal });
    expect(await pageToolNames()).toEqual(expect.arrayContaining(['find_note', 'wait_for_it']));
    const running = rejectionOf(callAsAgent('wait_for_it', {}));
    await expect.poll(() => seen !== undefined).toBe(true);
    offer.abort();
    expect(await running).toBe('UnknownError');
    expect(seen?.aborted).toBe(true);
    const names = await pageToolNames();
    expect(names).not.toContain('find_note');
    expect(names).not.toContain('wait_for_it');
  });

  it('keeps the tool timeout: a call that runs past timeoutMs ends as timeout', async () => {
    recorder = recordExecutes();
    const slow = defineTool({
      name: 'slow',
      description: 'Slow',
      parameters: { type: 'object' },
      idempotent: false,
      timeoutMs: 30,
      call: () => new Promise(() => {}),
    });
    await offerWebMcpTools([slow], { signal: cleanup.signal });
    const direct = await recorder
      .get('slow')({})
      .catch((error: unknown) => error);
    expect((direct as Error).message).toMatch(/^timeout: /);
  });

  it('passes on a ToolError as tool_error', async () => {
    recorder = recordExecutes();
    const { ToolError } = await import('../../src/index.js');
    const picky = defineTool({
      name: 'picky',
      description: 'Picky',
      parameters: { type: 'object' },
      idempotent: true,
      call: () => {
        throw new ToolError('no such note');
      },
    });
    await offerWebMcpTools([picky], { signal: cleanup.signal });
    const direct = await recorder
      .get('picky')({})
      .catch((error: unknown) => error);
    expect((direct as Error).message).toBe('tool_error: no such note');
  });

  it('validates a tool defined with a Standard Schema (zod) in the page', async () => {
    recorder = recordExecutes();
    const { z } = await import('zod');
    const tag = defineTool({
      name: 'tag_note',
      description: 'Tag a note',
      parameters: z.object({ tag: z.string().min(2) }),
      idempotent: true,
      call: ({ tag }) => `#${tag}`,
    });
    await offerWebMcpTools([tag], { signal: cleanup.signal });
    expect(await callAsAgent('tag_note', { tag: 'todo' })).toBe('#todo');
    const direct = await recorder
      .get('tag_note')({ tag: 'x' })
      .catch((error: unknown) => error);
    expect((direct as Error).message).toMatch(/^invalid_arguments: /);
  });

  it('offers with no-eval validation', async () => {
    await offerWebMcpTools([findNote], { signal: cleanup.signal, validation: 'no-eval' });
    expect(JSON.parse(await callAsAgent('find_note', { title: 'x' }))).toEqual({ found: 'x', limit: 5 });
  });
});

describe('offerWebMcpTools: what it refuses', () => {
  it('refuses a name this page already offered as duplicate_tool, and offers none of the new tools', async () => {
    await offerWebMcpTools([findNote], { signal: cleanup.signal });
    const other = defineTool({ name: 'other_tool', description: 'x', parameters: { type: 'object' }, idempotent: true, call: () => 1 });
    await expect(offerWebMcpTools([other, findNote], { signal: cleanup.signal })).rejects.toMatchObject({ code: 'duplicate_tool' });
    expect(await pageToolNames()).not.toContain('other_tool');
  });

  it('refuses a name the page registered itself as duplicate_tool, and withdraws the ones it had registered', async () => {
    const { modelContextOf } = await import('./webmcp-helpers.js');
    await modelContextOf().registerTool({ name: 'taken', description: 'x', inputSchema: { type: 'object' }, execute: () => 1 }, { signal: cleanup.signal });
    const first = defineTool({ name: 'first_one', description: 'x', parameters: { type: 'object' }, idempotent: true, call: () => 1 });
    const taken = defineTool({ name: 'taken', description: 'x', parameters: { type: 'object' }, idempotent: true, call: () => 1 });
    await expect(offerWebMcpTools([first, taken], { signal: cleanup.signal })).rejects.toMatchObject({ code: 'duplicate_tool' });
    expect(await pageToolNames()).not.toContain('first_one');
  });

  it('refuses an invalid tool as invalid_tool before offering any', async () => {
    const bad = { ...findNote, name: 'bad name' };
    await expect(offerWebMcpTools([findNote, bad], { signal: cleanup.signal })).rejects.toMatchObject({ code: 'invalid_tool' });
    expect(await pageToolNames()).not.toContain('find_note');
  });

  it('refuses bad options with invalid_option', async () => {
    await expect(offerWebMcpTools([findNote], { validation: 'noeval' as never })).rejects.toMatchObject({ code: 'invalid_option' });
    await expect(offerWebMcpTools([findNote], { approve: 'yes' as never })).rejects.toMatchObject({ code: 'invalid_option' });
    await expect(offerWebMcpTools([findNote], { waitMs: -1 })).rejects.toMatchObject({ code: 'invalid_option' });
    expect(await pageToolNames()).not.toContain('find_note');
  });

  it('offers nothing under a signal that is already aborted', async () => {
    await expect(offerWebMcpTools([findNote], { signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'aborted' });
    expect(await pageToolNames()).not.toContain('find_note');
  });
});
