// How the page brings the runner worker up to date: tools added together cross in one message,
// in order, removals keep their place among them, and each refusal reaches the tool it is about.
import { describe, expect, it } from 'vitest';
import { RunnerSetup } from '../../src/worker/page/runner-setup.js';
import type { ToolDescriptor } from '../../src/worker/wire/protocol.js';
import { AmbiError } from '../../src/errors/ambi-error.js';

const descriptor = (name: string): ToolDescriptor => ({
  name,
  description: name,
  parameters: { type: 'object' },
  timeoutMs: 1000,
  maxRetries: 0,
  retryDelayMs: 0,
  idempotent: true,
  approval: 'never',
});

/** A setup whose worker records what it was sent, and refuses the tools named in `refuse`. */
function recorded(refuse: ReadonlySet<string> = new Set()) {
  const sent: string[] = [];
  const setup = new RunnerSetup(
    async () => {
      sent.push('configure');
    },
    async (descriptors) => {
      sent.push(`register ${descriptors.map((d) => d.name).join(',')}`);
      return descriptors.map((d) => (refuse.has(d.name) ? new AmbiError('invalid_tool', `refused ${d.name}`) : undefined));
    },
    async (name) => {
      sent.push(`unregister ${name}`);
    },
  );
  return { setup, sent };
}

describe('RunnerSetup', () => {
  it('sends the tools added together in one registration, and a removal between them in its place', async () => {
    const { setup, sent } = recorded();
    const refusals: unknown[] = [];
    for (const name of ['a', 'b', 'c']) setup.add(descriptor(name), (error) => refusals.push(error));
    setup.remove('b');
    for (const name of ['d', 'e']) setup.add(descriptor(name), (error) => refusals.push(error));
    await setup.sync();
    expect(sent).toEqual(['configure', 'register a,b,c', 'unregister b', 'register d,e']);
    expect(refusals).toEqual([]);
  });

  it('sends 1,000 tools as one message', async () => {
    const { setup, sent } = recorded();
    for (let i = 0; i < 1000; i++) setup.add(descriptor(`t${i}`), () => {});
    await setup.sync();
    expect(sent).toHaveLength(2);
    expect(sent[1]!.split(',')).toHaveLength(1000);
  });

  it('gives each refusal to the tool it is about, and the others stay registered', async () => {
    const { setup } = recorded(new Set(['b']));
    const heard: Record<string, unknown> = {};
    for (const name of ['a', 'b', 'c']) setup.add(descriptor(name), (error) => (heard[name] = error));
    await setup.sync();
    expect(Object.keys(heard)).toEqual(['b']);
    expect(heard.b).toMatchObject({ code: 'invalid_tool', message: 'refused b' });
  });

  it('a registration that fails as a whole is every tool’s refusal, unless the worker is gone', async () => {
    const failing = new RunnerSetup(
      async () => {},
      async () => {
        throw new Error('could not clone');
      },
      async () => {},
    );
    const heard: string[] = [];
    for (const name of ['a', 'b']) failing.add(descriptor(name), (error) => heard.push(`${name}: ${(error as Error).message}`));
    await failing.sync();
    expect(heard).toEqual(['a: could not clone', 'b: could not clone']);

    const dead = new RunnerSetup(
      async () => {},
      async () => {
        throw new AmbiError('worker_crashed', 'the runner worker died');
      },
      async () => {},
    );
    dead.add(descriptor('a'), () => heard.push('told'));
    await expect(dead.sync()).rejects.toMatchObject({ code: 'worker_crashed' });
    expect(heard).toHaveLength(2);
  });
});
