import type * as Comlink from 'comlink';

/**
 * A Comlink endpoint for one peer on a BroadcastChannel, where one tab leads the origin: what is
 * posted goes through `send` (addressed to the peer), and what arrives for the peer is handed in
 * with `deliver`. A BroadcastChannel carries no transferable objects: posting one fails, as
 * posting what cannot be cloned does.
 */
export class ChannelPeer implements Comlink.Endpoint {
  readonly #listeners = new Set<EventListenerOrEventListenerObject>();

  constructor(readonly send: (data: unknown) => void) {}

  postMessage(message: unknown, transfer?: Transferable[]): void {
    if (transfer && transfer.length > 0) throw new DOMException('A tab that follows the leading tab cannot be sent transferable objects', 'DataCloneError');
    this.send(message);
  }

  addEventListener(type: string, listener: EventListenerOrEventListenerObject): void {
    if (type === 'message') this.#listeners.add(listener);
  }

  removeEventListener(type: string, listener: EventListenerOrEventListenerObject): void {
    if (type === 'message') this.#listeners.delete(listener);
  }

  /** A message that arrived for this peer. */
  deliver(data: unknown): void {
    const event = new MessageEvent('message', { data });
    for (const listener of [...this.#listeners]) {
      if (typeof listener === 'function') listener(event);
      else listener.handleEvent(event);
    }
  }
}
