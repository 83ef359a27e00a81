// The sandbox's dedicated worker: one program, then the host terminates it. QuickJS loads here
// (its wasm from the URL the bundler gives, or a module the host compiled already), the program
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
const waiting = new Map<number, (answer: CallAnswer) => void>();

scope.addEventListener('message', (event) => {
  const message = event.data;
  if (message.type === 'answer') {
    waiting.get(message.id)?.(message.answer);
    waiting.delete(message.id);
  } else if (message.type === 'start') {
    start(message).catch((error: unknown) => scope.postMessage({ type: 'broken', message: error instanceof Error ? error.message : String(error) }));
  }
});

async function start(message: StartMessage): Promise<void> {
  const quickjs = await newQuickJSInstance(releaseSync, message.limits.memoryBytes, message.wasmModule ? { wasmModule: message.wasmModule } : wasmSource());
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
