// The harness's content script: tools that misbehave as a hostile or broken tab would. What they
// see of their calls is written on the page's <html> element (the DOM is shared with the page),
// where the test reads it. `?silent` pages get a content script that listens and never answers.
import { defineTool, exposeTabTools, ToolError } from 'ambi-web/extension';

const mark = (key: string, value: string) => {
  document.documentElement.dataset[key] = value;
};
const count = (key: string) => mark(key, String(Number(document.documentElement.dataset[key] ?? 0) + 1));

interface Port {
  name: string;
  onMessage: { addListener(listener: (message: unknown) => void): void };
}
const runtime = (globalThis as unknown as { chrome: { runtime: { onConnect: { addListener(listener: (port: Port) => void): void } } } }).chrome.runtime;

/** Resolves when `signal` aborts, after writing why on the page. */
const untilAborted = (signal: AbortSignal, key: string) =>
  new Promise<never>((_, reject) =>
    signal.addEventListener('abort', () => {
      mark(key, `${(signal.reason as { name?: string })?.name ?? 'aborted'}`);
      reject(signal.reason);
    }),
  );

if (new URLSearchParams(location.search).has('silent')) {
  // Takes every port and never answers, as a content script stuck in a loop of its own would.
  runtime.onConnect.addListener((port) => port.onMessage.addListener(() => count('silentRequests')));
} else {
  // Counts the page's requests to name the document a call is bound to (ambi-web's `where`), beside exposeTabTools' own listener.
  runtime.onConnect.addListener((port) => {
    if (port.name === 'ambi-web:tab-tools')
      port.onMessage.addListener((message) => {
        if ((message as { t?: string }).t === 'where') count('whereAsked');
      });
  });
  const inFrame = window !== window.top;
  exposeTabTools([
    defineTool({
      name: 'where',
      description: 'Where this content script runs',
      parameters: { type: 'object', properties: {} },
      readOnly: true,
      call: () => ({ url: location.href, title: document.title, frame: inFrame }),
    }),
    defineTool({
      name: 'echo',
      description: 'Returns its value, the length of its JSON, and the own keys and prototype it arrived with',
      parameters: { type: 'object', properties: { value: {} }, required: ['value'] },
      readOnly: true,
      call: ({ value }) => ({
        value,
        length: JSON.stringify(value).length,
        keys: typeof value === 'object' && value !== null ? Reflect.ownKeys(value).map(String) : [],
        plainPrototype: typeof value !== 'object' || value === null || Object.getPrototypeOf(value) === Object.prototype,
      }),
    }),
    defineTool({
      name: 'strict',
      description: 'Takes a whole number >= 1',
      parameters: { type: 'object', properties: { n: { type: 'integer', minimum: 1 } }, required: ['n'], additionalProperties: false },
      readOnly: true,
      call: ({ n }) => {
        count('strictRuns');
        return n * 2;
      },
    }),
    defineTool({
      name: 'slow',
      description: 'Runs until aborted',
      parameters: { type: 'object', properties: {} },
      idempotent: false,
      timeoutMs: 60_000,
      call: (_args, ctx) => {
        count('slowStarted');
        return untilAborted(ctx.signal, 'slowAborted');
      },
    }),
    defineTool({
      name: 'stuck',
      description: 'Never settles and ignores its signal',
      parameters: { type: 'object', properties: {} },
      idempotent: false,
      timeoutMs: 400,
      call: () => {
        count('stuckStarted');
        return new Promise<never>(() => {});
      },
    }),
    defineTool({
      name: 'big_output',
      description: 'Returns a string of `mb` mebibytes',
      parameters: { type: 'object', properties: { mb: { type: 'number' } }, required: ['mb'] },
      readOnly: true,
      call: ({ mb }) => 'x'.repeat(Math.round(mb * 1024 * 1024)),
    }),
    defineTool({
      name: '__proto__',
      description: 'A tool named as the prototype key',
      parameters: { type: 'object', properties: {} },
      readOnly: true,
      call: () => 'proto tool ran',
    }),
    defineTool({
      name: 'risky',
      description: 'Asks for approval above level 1 (its rule runs in the tab)',
      parameters: { type: 'object', properties: { level: { type: 'integer' } }, required: ['level'] },
      idempotent: true,
      needsApproval: ({ level }) => level > 1,
      call: ({ level }) => {
        count('riskyRuns');
        return `level ${level}`;
      },
    }),
    defineTool({
      name: 'stamp',
      description: 'Writes its text on the page; the person approves each call',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      idempotent: false,
      needsApproval: true,
      call: ({ text }) => {
        count('stampRuns');
        mark('stamped', text);
        return { stamped: text, url: location.href };
      },
    }),
    defineTool({
      name: 'tap',
      description: 'Changes the page at once, without asking',
      parameters: { type: 'object', properties: {} },
      idempotent: false,
      call: () => {
        count('tapRuns');
        return location.href;
      },
    }),
    defineTool({
      name: 'fails',
      description: 'Fails as a business error',
      parameters: { type: 'object', properties: {} },
      readOnly: true,
      call: () => {
        throw new ToolError('the shelf is empty');
      },
    }),
  ]);
}
