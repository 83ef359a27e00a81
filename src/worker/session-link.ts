import type * as Comlink from 'comlink';

/**
 * The page and the runner worker share the worker's own message channel: Worker
 * postMessage round trips are several times faster in Chromium than MessagePort ones.
 * Session messages (tool calls, results, run events) carry this mark; Comlink, on the
 * same channel for the runner's API, never sees them.
 */
const MARK = 'ambi-web:session';

type Target = Pick<Worker, 'postMessage' | 'addEventListener' | 'removeEventListener'>;
type Listener = (event: MessageEvent) => void;

const isSession = (data: unknown): boolean => typeof data === 'object' && data !== null && (data as Record<string, unknown>)[MARK] === 1;

/** Send a session message over `target` and hand the ones that arrive to `receive`. */
export function sessionLink<In, Out>(target: Target, receive: (message: In) => void): (message: Out) => void {
  target.addEventListener('message', (event: Event) => {
    const data = (event as MessageEvent).data as Record<string, unknown>;
    if (isSession(data)) receive(data.message as In);
  });
  return (message) => target.postMessage({ [MARK]: 1, message });
}

/** `target` as a Comlink endpoint that ignores session messages. */
export function comlinkEndpoint(target: Target): Comlink.Endpoint {
  const wrapped = new Map<EventListenerOrEventListenerObject, Listener>();
  return {
    postMessage: (message: unknown, transfer?: Transferable[]) => target.postMessage(message, transfer ?? []),
    addEventListener: (type: string, listener: EventListenerOrEventListenerObject) => {
      const filtered: Listener = (event) => {
        if (isSession(event.data)) return;
        if (typeof listener === 'function') listener(event);
        else listener.handleEvent(event);
      };
      wrapped.set(listener, filtered);
      target.addEventListener(type as 'message', filtered);
    },
    removeEventListener: (type: string, listener: EventListenerOrEventListenerObject) => {
      const filtered = wrapped.get(listener);
      if (filtered) target.removeEventListener(type as 'message', filtered);
      wrapped.delete(listener);
    },
  };
}
