// Hostile pages and a hostile browser state, for listWebMcpTools and offerWebMcpTools.
import { afterEach, describe, expect, it } from 'vitest';
import {
  defineTool,
  listWebMcpTools,
  offerWebMcpTools,
  ToolManager,
  ToolRegistry,
  webMcpAvailable,
  type Run,
  type ScriptedReply,
  type WorkerRunner,
} from '../../src/index.js';
import { openRunners } from '../support/worker-runners.js';
import type { WebMcpRegisteredTool } from '../../src/webmcp/model-context.js';
import { cleanupSignal, modelContextOf } from './webmcp-helpers.js';

const cleanup = cleanupSignal();
const runners = openRunners();
const undo: Array<() => void> = [];
afterEach(() => {
  cleanup.withdraw();
  runners.closeAll();
  for (const restore of undo.splice(0)) restore();
});

const pageRegisters = (
  name: string,
  execute: (input: Record<string, unknown>) => unknown,
  annotations: object = { readOnlyHint: true },
  doc: Document = document,
) => modelContextOf(doc).registerTool({ name, description: `${name} tool`, inputSchema: { type: 'object' }, annotations, execute }, { signal: cleanup.signal });

const runnerWith = (replies: ScriptedReply[], maxResultChars?: number): WorkerRunner => runners.runnerWith(replies, maxResultChars ? { maxResultChars } : {});

async function finish(run: Run) {
  for await (const _ of run.events);
  return run.result;
}

/** Replace a property of `target` for this test only (an own property shadows the prototype's). */
function shadow(target: object, key: string, value: unknown) {
  Object.defineProperty(target, key, { value, configurable: true, writable: true });
  undo.push(() => delete (target as Record<string, unknown>)[key]);
}

describe('hostile page tools', () => {
  it('lists a page tool named __proto__ and calls it from a WorkerRunner run', async () => {
    await pageRegisters('__proto__', () => ({ reached: true }));
    const tools = await listWebMcpTools({ include: ['__proto__'] });
    expect(tools.map((tool) => tool.name)).toEqual(['__proto__']);
    const runner = runnerWith([{ toolCalls: [{ name: '__proto__', arguments: {} }] }, 'done']);
    runner.tool(tools[0]!);
    const result = await finish(runner.run('go'));
    expect(result.toolResults).toMatchObject([{ name: '__proto__', ok: true, output: { reached: true } }]);
  });

  it('fits names outside our rule: other characters become _, cut to 64, the WebMCP name kept', async () => {
    await pageRegisters('notes.search', () => 1);
    await pageRegisters('n'.repeat(100), () => 2);
    const tools = await listWebMcpTools({ include: ['notes.search', 'n'.repeat(100)] });
    expect(tools.map((tool) => [tool.name, tool.webMcp.name])).toEqual(
      expect.arrayContaining([
        ['notes_search', 'notes.search'],
        ['n'.repeat(64), 'n'.repeat(100)],
      ]),
    );
    const runner = runnerWith([{ toolCalls: [{ name: 'notes_search', arguments: {} }] }, 'done']);
    for (const tool of tools) runner.tool(tool);
    expect((await finish(runner.run('go'))).toolResults).toMatchObject([{ name: 'notes_search', ok: true, output: 1 }]);
  });

  it('refuses two names that fit to one as duplicate_tool, and lists them once one is excluded', async () => {
    await pageRegisters('a.b', () => 1);
    await pageRegisters('a_b', () => 2);
    await expect(listWebMcpTools({ include: ['a.b', 'a_b'] })).rejects.toMatchObject({
      code: 'duplicate_tool',
      message: expect.stringContaining('"a.b" and "a_b" both become "a_b"'),
    });
    expect((await listWebMcpTools({ include: ['a.b', 'a_b'], exclude: ['a.b'] })).map((tool) => tool.webMcp.name)).toEqual(['a_b']);
  });

  it('refuses one name registered by the page and by a frame as duplicate_tool', async () => {
    const frame = document.createElement('iframe');
    const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
    document.body.append(frame);
    undo.push(() => frame.remove());
    await loaded;
    await pageRegisters('twice', () => 'page');
    await pageRegisters('twice', () => 'frame', { readOnlyHint: true }, frame.contentDocument!);
    await expect(listWebMcpTools({ include: ['twice'] })).rejects.toMatchObject({
      code: 'duplicate_tool',
      message: expect.stringContaining('registered twice'),
    });
  });

  it('caps a huge page result where the model reads it, and the run completes', async () => {
    await pageRegisters('huge', () => 'x'.repeat(5_000_000));
    const runner = runnerWith([{ toolCalls: [{ name: 'huge', arguments: {} }] }, 'done'], 1_000);
    runner.tool((await listWebMcpTools({ include: ['huge'] }))[0]!);
    const result = await finish(runner.run('go'));
    expect(result.text).toBe('done');
    const toolMessage = result.messages.find((message) => message.role === 'tool');
    expect(toolMessage?.content.length).toBeLessThanOrEqual(1_200);
  });

  it('ends a page tool that never resolves as timeout, under the listed timeoutMs', async () => {
    await pageRegisters('never', () => new Promise(() => {}), { readOnlyHint: false });
    const tool = (await listWebMcpTools({ include: ['never'], timeoutMs: 50 }))[0]!;
    expect(tool.timeoutMs).toBe(50);
    const runner = runnerWith([{ toolCalls: [{ name: 'never', arguments: {} }] }, 'done']);
    runner.tool(tool);
    const run = runner.run('go');
    for await (const event of run.events) if (event.type === 'approval_requested') run.approve(event.call.id);
    expect((await run.result).toolResults).toMatchObject([{ name: 'never', ok: false, error: { code: 'timeout' }, attempts: 1 }]);
  });

  it('refuses an inputSchema that does not describe an object as invalid_tool', async () => {
    await modelContextOf().registerTool({ name: 'stringly', description: 'x', inputSchema: { type: 'string' }, execute: () => 1 }, { signal: cleanup.signal });
    await expect(listWebMcpTools({ include: ['stringly'] })).rejects.toMatchObject({ code: 'invalid_tool' });
  });
});

describe('the tool objects of later Chromium versions', () => {
  /** What Chrome's documentation announces for Chromium 160: getters on a prototype (nothing to spread), `source` for `window`. */
  class InterfaceTool {
    readonly #listed: WebMcpRegisteredTool;
    constructor(listed: WebMcpRegisteredTool) {
      this.#listed = listed;
    }
    get name() {
      return this.#listed.name;
    }
    get title() {
      return this.#listed.title;
    }
    get description() {
      return this.#listed.description;
    }
    get inputSchema() {
      return this.#listed.inputSchema ?? null;
    }
    get annotations() {
      return this.#listed.annotations ?? null;
    }
    get origin() {
      return this.#listed.origin;
    }
    get source() {
      return this.#listed.window;
    }
  }

  it('reads a listed tool property by property and hands executeTool the object itself', async () => {
    await pageRegisters('shaped', () => ({ shaped: true }));
    await offerWebMcpTools([defineTool({ name: 'own_offer', description: 'x', parameters: { type: 'object' }, idempotent: true, call: () => 1 })], {
      signal: cleanup.signal,
    });
    const context = modelContextOf();
    const realGetTools = context.getTools.bind(context);
    const realExecute = context.executeTool.bind(context);
    const behind = new WeakMap<object, WebMcpRegisteredTool>();
    shadow(context, 'getTools', async () =>
      (await realGetTools()).map((listed) => {
        const tool = new InterfaceTool(listed);
        behind.set(tool, listed);
        return tool;
      }),
    );
    // The tool is found by the object's identity: a copy is no tool.
    shadow(context, 'executeTool', (tool: object, input: object, options?: { signal?: AbortSignal }) => {
      const listed = behind.get(tool);
      return listed ? realExecute(listed, input, options) : Promise.reject(new TypeError('not a Tool'));
    });
    const tools = await listWebMcpTools();
    expect(tools.map((tool) => tool.name)).toContain('shaped');
    expect(tools.map((tool) => tool.name)).not.toContain('own_offer');
    const shaped = tools.find((tool) => tool.name === 'shaped')!;
    expect(shaped).toMatchObject({ description: 'shaped tool', parameters: { type: 'object' }, readOnly: true });
    const result = await new ToolManager(new ToolRegistry().register(shaped)).execute({ id: 'c1', name: 'shaped', arguments: {} });
    expect(result).toMatchObject({ ok: true, output: { shaped: true } });
  });
});

describe('a browser that does not answer', () => {
  it('rejects with webmcp_timeout when getTools does not settle within waitMs', async () => {
    shadow(modelContextOf(), 'getTools', () => new Promise(() => {}));
    await expect(listWebMcpTools({ waitMs: 50 })).rejects.toMatchObject({ code: 'webmcp_timeout' });
  });

  it('waits for the load before asking: a getTools made in the first script run would never settle', async () => {
    await pageRegisters('after_load', () => 1);
    const context = modelContextOf();
    const real = context.getTools.bind(context);
    let readyState: DocumentReadyState = 'loading';
    shadow(document, 'readyState', undefined);
    Object.defineProperty(document, 'readyState', { get: () => readyState, configurable: true });
    // What Chromium does to a getTools() made while the document loads: it never settles.
    shadow(context, 'getTools', () => (readyState === 'complete' ? real() : new Promise(() => {})));
    const listing = listWebMcpTools({ include: ['after_load'], waitMs: 2_000 });
    setTimeout(() => {
      readyState = 'complete';
      window.dispatchEvent(new Event('load'));
    }, 20);
    expect((await listing).map((tool) => tool.name)).toEqual(['after_load']);
  });

  it('rejects with webmcp_timeout when registerTool does not settle, and leaves nothing offered', async () => {
    const context = modelContextOf();
    const real = context.registerTool.bind(context);
    let calls = 0;
    // The first registration goes through, the second hangs (as one made in a frame's first moments can).
    shadow(context, 'registerTool', (tool: object, options?: { signal?: AbortSignal }) => (++calls === 1 ? real(tool, options) : new Promise(() => {})));
    const tool = (name: string) => defineTool({ name, description: 'x', parameters: { type: 'object' }, idempotent: true, call: () => 1 });
    await expect(offerWebMcpTools([tool('goes_through'), tool('hangs')], { signal: cleanup.signal, waitMs: 50 })).rejects.toMatchObject({
      code: 'webmcp_timeout',
    });
    const names = (await context.getTools()).map((t) => t.name);
    expect(names).not.toContain('goes_through');
    // Withdrawn, so the name is free again.
    delete (context as unknown as Record<string, unknown>).registerTool;
    expect((await offerWebMcpTools([tool('goes_through')], { signal: cleanup.signal })).offered).toEqual(['goes_through']);
  });
});

describe('a modelContext that is not quite WebMCP (a polyfill, say)', () => {
  it('rejects a getTools answer that is not a list of named tools with webmcp_refused', async () => {
    shadow(modelContextOf(), 'getTools', async () => ({ tools: [] }));
    await expect(listWebMcpTools()).rejects.toMatchObject({ code: 'webmcp_refused' });
    shadow(modelContextOf(), 'getTools', async () => [{ title: 'no name' }]);
    await expect(listWebMcpTools()).rejects.toMatchObject({ code: 'webmcp_refused' });
  });

  it('rejects listing with webmcp_unavailable where there is no executeTool', async () => {
    shadow(modelContextOf(), 'executeTool', undefined);
    await expect(listWebMcpTools()).rejects.toMatchObject({ code: 'webmcp_unavailable', message: expect.stringContaining('executeTool') });
  });
});

describe('withdrawn halfway', () => {
  const tool = (name: string, needsApproval = false) =>
    defineTool({ name, description: 'x', parameters: { type: 'object' }, idempotent: true, needsApproval, call: () => `${name} ran` });

  it('rejects with aborted when the signal aborts while tools register, and leaves no name taken', async () => {
    const context = modelContextOf();
    const real = context.registerTool.bind(context);
    const offer = new AbortController();
    // The page gives up as soon as the first tool is registered.
    shadow(context, 'registerTool', async (init: object, options?: { signal?: AbortSignal }) => {
      await real(init, options);
      offer.abort();
    });
    await expect(offerWebMcpTools([tool('first_tool'), tool('second_tool')], { signal: offer.signal })).rejects.toMatchObject({ code: 'aborted' });
    delete (context as unknown as Record<string, unknown>).registerTool;
    const names = (await context.getTools()).map((t) => t.name);
    expect(names).not.toContain('first_tool');
    expect(names).not.toContain('second_tool');
    expect((await offerWebMcpTools([tool('first_tool'), tool('second_tool')], { signal: cleanup.signal })).offered).toEqual(['first_tool', 'second_tool']);
  });

  it('ends a call that waits for approval as aborted when its caller gives up', async () => {
    const recorded = new Map<string, (input: object, client?: { signal?: AbortSignal }) => Promise<unknown>>();
    const context = modelContextOf();
    const real = context.registerTool.bind(context);
    shadow(
      context,
      'registerTool',
      (init: { name: string; execute: (input: object, client?: { signal?: AbortSignal }) => Promise<unknown> }, options?: { signal?: AbortSignal }) => {
        recorded.set(init.name, init.execute);
        return real(init, options);
      },
    );
    let asked = 0;
    await offerWebMcpTools([tool('gated', true)], {
      signal: cleanup.signal,
      approve: () => {
        asked++;
        return new Promise<boolean>(() => {}); // nobody answers
      },
    });
    const caller = new AbortController();
    const call = recorded.get('gated')!({}, { signal: caller.signal }).catch((error: unknown) => error);
    await expect.poll(() => asked).toBe(1);
    caller.abort();
    expect(((await call) as Error).message).toMatch(/^aborted: /);
  });
});

describe('without document.modelContext', () => {
  it('says WebMCP is unavailable, and both functions reject with webmcp_unavailable', async () => {
    shadow(document, 'modelContext', undefined);
    expect(webMcpAvailable()).toBe(false);
    await expect(listWebMcpTools()).rejects.toMatchObject({ code: 'webmcp_unavailable' });
    await expect(offerWebMcpTools([])).rejects.toMatchObject({ code: 'webmcp_unavailable' });
  });
});
