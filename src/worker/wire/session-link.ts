import type * as Comlink from 'comlink';

/**
 * The page and the runner worker share the worker's own message channel: Worker
 * postMessage round trips are several times faster in Chromium than MessagePort ones.
 * Session messages (tool calls, results, run events) are arrays (see protocol.ts); Comlink,
 * on the same channel for the runner's API, posts only objects and never sees them. One
 * listener per side routes both: a second listener would cost every message another call into it.
 */
type Target = Pick<Worker, 'postMessage' | 'addEventListener' | 'removeEventListener'>;
type Listener = (event: MessageEvent) => void;

/** Where one target's messages go: session messages to `session`, the others to Comlink's listeners. */
interface Routes {
  session: ((message: unknown[]) => void) | undefined;
  others: Map<EventListenerOrEventListenerObject, Listener>;
}

const routed = new WeakMap<Target, Routes>();

function routesOf(target: Target): Routes {
  const existing = routed.get(target);
  if (existing) return existing;
  const routes: Routes = { session: undefined, others: new Map() };
  routed.set(target, routes);
  target.addEventListener('message', (event: Event) => {
    const data: unknown = (event as MessageEvent).data;
    if (Array.isArray(data)) routes.session?.(data);
    else for (const listener of routes.others.values()) listener(event as MessageEvent);
  });
  return routes;
}

/** Send session messages (arrays) over `target` and hand the ones that arrive to `receive`. */
export function sessionLink<In extends unknown[], Out extends unknown[]>(target: Target, receive: (message: In) => void): (message: Out) => void {
  routesOf(target).session = receive as (message: unknown[]) => void;
  return (message) => target.postMessage(message);
}

/** `target` as a Comlink endpoint that never sees session messages. */
export function comlinkEndpoint(target: Target): Comlink.Endpoint {
  const routes = routesOf(target);
  return {
    postMessage: (message: unknown, transfer?: Transferable[]) => target.postMessage(message, transfer ?? []),
    addEventListener: (type: string, listener: EventListenerOrEventListenerObject) => {
      if (type !== 'message') return target.addEventListener(type as 'message', listener as Listener);
      routes.others.set(listener, typeof listener === 'function' ? (listener as Listener) : (event) => listener.handleEvent(event));
    },
    removeEventListener: (type: string, listener: EventListenerOrEventListenerObject) => {
      if (type !== 'message') return target.removeEventListener(type as 'message', listener as Listener);
      routes.others.delete(listener);
    },
  };
}
