// Chrome's built-in model takes images (the Prompt API's `expectedInputs: [{ type: 'image' }]`, a
// Blob per image in a message's content), on the specification-shaped stand-in, in-process and
// through a runner worker (whose requests run on the page: the Blob crosses as it is).
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, ChatRunner, createWorkerRunner, isAmbiError, promptApiEngine, type Run, type RunInput } from '../../src/index.js';
import { installLanguageModel } from '../support/language-model-stand-in.js';
import { PNG } from '../support/parts.js';

const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const undo of cleanup.splice(0)) undo();
});

async function start(realm: 'in-process' | 'runner worker', input: RunInput): Promise<Run> {
  if (realm === 'in-process') return new ChatRunner().run(await Agent.make(promptApiEngine({ languages: ['en'] })), input);
  const runner = createWorkerRunner({ engine: promptApiEngine({ languages: ['en'] }) });
  cleanup.push(() => runner.close());
  return runner.run(input);
}

describe.each(['in-process', 'runner worker'] as const)('promptApiEngine with images (%s)', (realm) => {
  it('opens a session that expects images and prompts with the image as a Blob', async () => {
    const installed = installLanguageModel({ availability: 'available', replies: [['A red ', 'square.']] });
    cleanup.push(installed.remove);
    const run = await start(realm, [
      { type: 'text', text: 'What is it?' },
      { type: 'image', image: new Blob([PNG], { type: 'image/png' }) },
    ]);
    expect((await run.result).text).toBe('A red square.');
    expect(installed.log.created[0]).toMatchObject({ expectedInputs: [{ type: 'text', languages: ['en'] }, { type: 'image' }] });
    const [message] = installed.log.prompts[0]!.input as Array<{ role: string; content: Array<{ type: string; value: unknown }> }>;
    expect(message!.role).toBe('user');
    expect(message!.content.map((piece) => piece.type)).toEqual(['text', 'image']);
    expect(new Uint8Array(await (message!.content[1]!.value as Blob).arrayBuffer())).toEqual(PNG);
  });

  it('an https: image fails unsupported_content (the browser model takes bytes; ambi-web never fetches)', async () => {
    const installed = installLanguageModel({ availability: 'available', replies: [['never']] });
    cleanup.push(installed.remove);
    const run = await start(realm, [{ type: 'image', image: 'https://images.example/cat.png' }]);
    expect(isAmbiError(await run.result.catch((e: unknown) => e), 'unsupported_content')).toBe(true);
    expect(installed.log.prompts).toEqual([]);
  });
});
