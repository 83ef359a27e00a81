import type * as Comlink from 'comlink';

/**
 * The page's end of a shared runner, for Comlink: one endpoint for the page's whole life, whose
 * target (a SharedWorker's port, the leading tab through a BroadcastChannel, or this tab's own
 * runner worker once it leads) is connected when known and switched when another tab starts to
 * lead. What is posted before the first target is known waits for it.
 */
export class SwitchEndpoint implements Comlink.Endpoint {
  readonly #listeners = new Set<EventListenerOrEventListenerObject>();
  #target: Comlink.Endpoint | undefined;
  #waiting: Array<[unknown, Transferable[] | undefined]> = [];

  postMessage(message: unknown, transfer?: Transferable[]): void {
    if (this.#target) this.#target.postMessage(message, transfer);
    else this.#waiting.push([message, transfer]);
  }

  addEventListener(type: string, listener: EventListenerOrEventListenerObject): void {
    if (type === 'message') this.#listeners.add(listener);
  }

  removeEventListener(type: string, listener: EventListenerOrEventListenerObject): void {
    if (type === 'message') this.#listeners.delete(listener);
  }

  /** Talk to `target` from now on (what the last one sends is no longer heard). */
  connect(target: Comlink.Endpoint): void {
    this.#target?.removeEventListener('message', this.#relay);
    this.#target = target;
    target.addEventListener('message', this.#relay);
    target.start?.();
    for (const [message, transfer] of this.#waiting.splice(0)) target.postMessage(message, transfer);
  }

  readonly #relay = (event: Event): void => {
    for (const listener of [...this.#listeners]) {
      if (typeof listener === 'function') listener(event);
      else listener.handleEvent(event);
    }
  };
}
