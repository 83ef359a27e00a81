// The sandbox's dedicated worker: one program, then the host terminates it. QuickJS loads here
// (its wasm from the URL the bundler gives), the program
// runs, each tool call goes to the host as a message and its answer comes back as one.
// Nothing here reads the page: the program reaches the host only through these messages.
import releaseSync from '@jitl/quickjs-wasmfile-release-sync';
import type { CallAnswer, HostToSandbox, SandboxToHost, StartMessage } from './protocol.js';
import { newQuickJSInstance } from './quickjs-instance.js';
import { runInQuickJS } from './quickjs-program.js';
import { wasmSource } from './wasm-location.js';

const scope = self as unknown as {
  postMessage(message: SandboxToHost): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<HostToSandbox>) => void): void;
};
scope.addEventListener('message', (event) => {
  if (event.data.type !== 'start') return;
  start(event.data).catch((error: unknown) => scope.postMessage({ type: 'broken', message: error instanceof Error ? error.message : String(error) }));
});

/** Run the one program this worker is for; each call's answer comes back as an `answer` message. */
async function start(message: StartMessage): Promise<void> {
  const quickjs = await newQuickJSInstance(releaseSync, message.limits.memoryBytes, wasmSource());
  const waiting = new Map<number, (answer: CallAnswer) => void>();
  scope.addEventListener('message', ({ data }) => {
    if (data.type !== 'answer') return;
    waiting.get(data.id)?.(data.answer);
    waiting.delete(data.id);
  });
  scope.postMessage({ type: 'ready' });
  const host = {
    call: (name: string, args: string, id: number) =>
      new Promise<CallAnswer>((resolve) => {
        waiting.set(id, resolve);
        scope.postMessage({ type: 'call', id, name, args });
      }),
  };
  const outcome = await runInQuickJS(quickjs, { code: message.code, names: message.names, limits: message.limits }, host);
  scope.postMessage({ type: 'done', outcome });
}
