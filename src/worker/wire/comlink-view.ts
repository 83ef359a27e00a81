import type * as Comlink from 'comlink';

/**
 * The channel as Comlink's `expose` should see it: only Comlink's own messages (objects). A
 * page-tool call, its answer and a batch of run events cross the same channel as arrays (see
 * protocol.ts); Comlink's listener would copy each one into an object and walk an empty path
 * before it gave up on it, on every message of the hot path.
 */
export function comlinkView(endpoint: Comlink.Endpoint): Comlink.Endpoint {
  const wrapped = new Map<EventListenerOrEventListenerObject, EventListener>();
  return {
    postMessage: (message, transfer) => endpoint.postMessage(message, transfer),
    addEventListener(type, listener, options) {
      const onMessage: EventListener = (event) => {
        if (Array.isArray((event as MessageEvent).data)) return;
        if (typeof listener === 'function') listener(event);
        else listener.handleEvent(event);
      };
      wrapped.set(listener, onMessage);
      endpoint.addEventListener(type, onMessage, options);
    },
    removeEventListener(type, listener, options) {
      const onMessage = wrapped.get(listener);
      if (!onMessage) return;
      wrapped.delete(listener);
      endpoint.removeEventListener(type, onMessage, options);
    },
    ...(endpoint.start ? { start: () => endpoint.start?.() } : {}),
  };
}
