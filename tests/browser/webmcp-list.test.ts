// listWebMcpTools in real Chromium: tools the page and a same-origin frame registered, called from a WorkerRunner run.
import { afterEach, describe, expect, it } from 'vitest';
import { defineTool, listWebMcpTools, offerWebMcpTools, type Run, type RunEvent, type ScriptedReply } from '../../src/index.js';
import { openRunners } from '../support/worker-runners.js';
import * as pageEntry from '../../src/worker/index.js';
import { cleanupSignal, modelContextOf } from './webmcp-helpers.js';

const cleanup = cleanupSignal();
const runners = openRunners();
const { runnerWith } = runners;
const frames: HTMLIFrameElement[] = [];
afterEach(() => {
  cleanup.withdraw();
  runners.closeAll();
  for (const frame of frames.splice(0)) frame.remove();
});

/** Register a tool the way a page does, with WebMCP directly (withdrawn after the test). */
function pageRegisters(
  tool: { name: string; description?: string; inputSchema?: object; annotations?: object; execute: (input: Record<string, unknown>) => unknown },
  doc: Document = document,
) {
  return modelContextOf(doc).registerTool({ description: `${tool.name} tool`, ...tool }, { signal: cleanup.signal });
}

/** A same-origin frame, loaded (WebMCP calls in a frame's first moments may never settle). */
async function loadedFrame(): Promise<HTMLIFrameElement> {
  const frame = document.createElement('iframe');
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  frame.srcdoc = '<p>frame</p>';
  document.body.append(frame);
  frames.push(frame);
  await loaded;
  return frame;
}

/** Run to the end, answering each approval with `decide` (approve by default). */
async function finish(run: Run, decide: 'approve' | 'deny' = 'approve'): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of run.events) {
    events.push(event);
    if (event.type === 'approval_requested') decide === 'approve' ? run.approve(event.call.id) : run.deny(event.call.id, 'not now');
  }
  return events;
}

const callOf = (name: string, args: object = {}): ScriptedReply => ({ toolCalls: [{ name, arguments: args }] });

describe('listWebMcpTools', () => {
  it('lists a page tool with its schema, and its policy from the annotations', async () => {
    const schema = { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] };
    await pageRegisters({
      name: 'search_page',
      description: 'Search this page',
      inputSchema: schema,
      annotations: { readOnlyHint: true, untrustedContentHint: true },
      execute: () => [],
    });
    await pageRegisters({ name: 'buy_item', inputSchema: { type: 'object' }, execute: () => 'bought' });
    const tools = await listWebMcpTools();
    const search = tools.find((tool) => tool.name === 'search_page');
    const buy = tools.find((tool) => tool.name === 'buy_item');
    expect(search).toMatchObject({ description: 'Search this page', parameters: schema, readOnly: true, idempotent: true, needsApproval: false });
    expect(search?.webMcp).toEqual({ name: 'search_page', title: '', origin: location.origin, untrustedContent: true });
    expect(buy).toMatchObject({ readOnly: false, idempotent: false, needsApproval: true });
    expect(buy?.webMcp.untrustedContent).toBe(false);
  });

  it('is in the page entry too', () => {
    expect(pageEntry.listWebMcpTools).toBe(listWebMcpTools);
  });

  it('leaves out the tools this page offered itself', async () => {
    await pageRegisters({ name: 'page_own', execute: () => 1 });
    await offerWebMcpTools([defineTool({ name: 'offered_here', description: 'x', parameters: { type: 'object' }, idempotent: true, call: () => 1 })], {
      signal: cleanup.signal,
    });
    const names = (await listWebMcpTools()).map((tool) => tool.name);
    expect(names).toContain('page_own');
    expect(names).not.toContain('offered_here');
  });

  it('keeps only the include list, and drops the exclude list', async () => {
    await pageRegisters({ name: 'one', execute: () => 1 });
    await pageRegisters({ name: 'two', execute: () => 2 });
    await pageRegisters({ name: 'three', execute: () => 3 });
    expect((await listWebMcpTools({ include: ['one', 'three'] })).map((tool) => tool.name).sort()).toEqual(['one', 'three']);
    expect((await listWebMcpTools({ include: ['one', 'two', 'three'], exclude: ['two'] })).map((tool) => tool.name).sort()).toEqual(['one', 'three']);
  });

  it('gives a tool without an inputSchema empty-object parameters', async () => {
    await pageRegisters({ name: 'no_schema', execute: () => 'ok' });
    const tool = (await listWebMcpTools({ include: ['no_schema'] }))[0]!;
    expect(tool.parameters).toEqual({ type: 'object' });
  });

  it('refuses bad options with invalid_option', async () => {
    await expect(listWebMcpTools({ include: 'one' as never })).rejects.toMatchObject({ code: 'invalid_option' });
    await expect(listWebMcpTools({ timeoutMs: 0 })).rejects.toMatchObject({ code: 'invalid_option' });
  });
});

describe('listed WebMCP tools in a WorkerRunner run', () => {
  it('calls a read-only page tool from the run, without approval, and parses its JSON text', async () => {
    const inputs: unknown[] = [];
    await pageRegisters({
      name: 'read_title',
      inputSchema: { type: 'object', properties: { upper: { type: 'boolean' } } },
      annotations: { readOnlyHint: true },
      execute: (input) => {
        inputs.push(input);
        return { title: input.upper ? 'NOTES' : 'notes' };
      },
    });
    const runner = runnerWith([callOf('read_title', { upper: true }), 'done']);
    for (const tool of await listWebMcpTools({ include: ['read_title'] })) runner.tool(tool);
    const run = runner.run('read it');
    const events = await finish(run);
    const { toolResults } = await run.result;
    expect(events.some((event) => event.type === 'approval_requested')).toBe(false);
    expect(toolResults).toMatchObject([{ name: 'read_title', ok: true, output: { title: 'NOTES' } }]);
    expect(inputs).toEqual([{ upper: true }]);
  });

  it('calls a tool registered by a same-origin frame', async () => {
    const frame = await loadedFrame();
    await pageRegisters(
      { name: 'frame_count', annotations: { readOnlyHint: true }, execute: () => ({ paragraphs: frame.contentDocument!.querySelectorAll('p').length }) },
      frame.contentDocument!,
    );
    const listed = await listWebMcpTools({ include: ['frame_count'] });
    expect(listed.map((tool) => tool.name)).toEqual(['frame_count']);
    const runner = runnerWith([callOf('frame_count'), 'done']);
    runner.tool(listed[0]!);
    const run = runner.run('count');
    await finish(run);
    expect((await run.result).toolResults).toMatchObject([{ name: 'frame_count', ok: true, output: { paragraphs: 1 } }]);
  });

  it('asks approval for a page tool that is not read-only, and runs it once approved', async () => {
    const ran: unknown[] = [];
    await pageRegisters({
      name: 'place_order',
      inputSchema: { type: 'object', properties: { item: { type: 'string' } } },
      execute: (input) => {
        ran.push(input);
        return 'ordered';
      },
    });
    const runner = runnerWith([callOf('place_order', { item: 'tea' }), 'done']);
    runner.tool((await listWebMcpTools({ include: ['place_order'] }))[0]!);
    const run = runner.run('order');
    const events = await finish(run, 'approve');
    expect(events.filter((event) => event.type === 'approval_requested')).toHaveLength(1);
    expect((await run.result).toolResults).toMatchObject([{ ok: true, output: 'ordered' }]);
    expect(ran).toEqual([{ item: 'tea' }]);
  });

  it('does not call a page tool that is denied', async () => {
    const ran: unknown[] = [];
    await pageRegisters({
      name: 'place_order',
      execute: (input) => {
        ran.push(input);
        return 'ordered';
      },
    });
    const runner = runnerWith([callOf('place_order'), 'done']);
    runner.tool((await listWebMcpTools({ include: ['place_order'] }))[0]!);
    const run = runner.run('order');
    await finish(run, 'deny');
    expect((await run.result).toolResults).toMatchObject([{ ok: false, error: { code: 'denied' } }]);
    expect(ran).toEqual([]);
  });

  it('reports a page tool that throws as tool_error', async () => {
    await pageRegisters({
      name: 'broken',
      annotations: { readOnlyHint: true },
      execute: () => {
        throw new Error('the page broke');
      },
    });
    const runner = runnerWith([callOf('broken'), 'done']);
    runner.tool((await listWebMcpTools({ include: ['broken'] }))[0]!);
    const run = runner.run('try');
    await finish(run);
    expect((await run.result).toolResults).toMatchObject([
      { name: 'broken', ok: false, error: { code: 'tool_error', message: expect.stringMatching(/The page's tool "broken" failed: UnknownError/) } },
    ]);
  });

  it('validates arguments here: an invalid call never reaches the page tool', async () => {
    const ran: unknown[] = [];
    await pageRegisters({
      name: 'typed',
      inputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
      annotations: { readOnlyHint: true },
      execute: (input) => {
        ran.push(input);
        return 1;
      },
    });
    const runner = runnerWith([callOf('typed', { n: 'seven' }), 'done']);
    runner.tool((await listWebMcpTools({ include: ['typed'] }))[0]!);
    const run = runner.run('try');
    await finish(run);
    expect((await run.result).toolResults).toMatchObject([{ ok: false, error: { code: 'invalid_arguments' } }]);
    expect(ran).toEqual([]);
  });

  it('keeps a result that is not JSON as text', async () => {
    await pageRegisters({ name: 'plain', annotations: { readOnlyHint: true }, execute: () => 'just words' });
    await pageRegisters({ name: 'nothing', annotations: { readOnlyHint: true }, execute: () => undefined });
    const runner = runnerWith([
      {
        toolCalls: [
          { name: 'plain', arguments: {} },
          { name: 'nothing', arguments: {} },
        ],
      },
      'done',
    ]);
    for (const tool of await listWebMcpTools({ include: ['plain', 'nothing'] })) runner.tool(tool);
    const run = runner.run('try');
    await finish(run);
    expect((await run.result).toolResults).toMatchObject([
      { ok: true, output: 'just words' },
      { ok: true, output: 'undefined' },
    ]);
  });
});
