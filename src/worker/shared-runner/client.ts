import * as Comlink from 'comlink';
import type { CallTarget } from '../../core/types.js';
import type { ServedOutput } from '../../call/served-output.js';
import { AmbiError } from '../../errors/ambi-error.js';
import { onAbort } from '../../util/abort-source.js';
import { PageLink } from '../runner/page-link.js';
import type { PageRequests } from '../wire/descriptor.js';
import type { PageHostApi, WireContext } from '../wire/protocol.js';
import type { WireReason } from '../wire/wire-error.js';
import { PAGE_LOCK, type PageIdentity } from './protocol.js';

/**
 * One page connected to the origin's runner (a SharedWorker's port, or a page that follows the
 * leading tab): its link (its tools' requests, the events of the runs it follows), who it is once
 * it configured, and whether it is gone.
 */
export class Client {
  readonly link: PageLink;
  /** What this page's tools are asked: each request ends `tab_gone` if the page goes first. */
  readonly page: PageRequests;
  identity: PageIdentity | undefined;
  /** When it said who it is, in the order pages did: a later page of the same tab succeeds it. */
  identified = 0;
  readonly #gone = new AbortController();

  constructor(
    readonly endpoint: Comlink.Endpoint,
    /** Requests to this page may carry transferable objects (a MessagePort; a BroadcastChannel cannot). */
    readonly transfers: boolean,
  ) {
    this.link = new PageLink(Comlink.wrap<PageHostApi>(endpoint), endpoint);
    this.page = new GuardedPage(this.link, this.#gone.signal);
  }

  /** Aborted once the page is gone. */
  get gone(): AbortSignal {
    return this.#gone.signal;
  }

  /** The page is gone (its lock was freed, or it never said who it is); whether it was here until now. */
  end(): boolean {
    if (this.#gone.signal.aborted) return false;
    this.#gone.abort(new AmbiError('tab_gone', 'The page went away'));
    return true;
  }
}

/** Call `gone` once page `pageId` no longer holds its lock: it closed, navigated away, reloaded, or closed its runner. */
export function watchPage(pageId: string, stop: AbortSignal, gone: () => void): void {
  const locks = (globalThis.navigator as { locks?: LockManager } | undefined)?.locks;
  if (!locks) return;
  locks.request(PAGE_LOCK + pageId, { signal: stop }, () => gone()).catch(() => {});
}

/** A page's requests that end `tab_gone` when the page goes before it answers: a call in flight is never run again elsewhere. */
class GuardedPage implements PageRequests {
  constructor(
    readonly link: PageLink,
    readonly gone: AbortSignal,
  ) {}

  call(tool: string, args: unknown, ctx: WireContext, key: number): Promise<ServedOutput> {
    return this.#guard(this.link.call(tool, args, ctx, key));
  }

  needsApproval(tool: string, args: unknown, key: number): Promise<boolean> {
    return this.#guard(this.link.needsApproval(tool, args, key));
  }

  target(tool: string, args: unknown, key: number): Promise<CallTarget> {
    return this.#guard(this.link.target(tool, args, key));
  }

  abort(key: number, reason: WireReason): void {
    this.link.abort(key, reason);
  }

  #guard<T>(sent: Promise<T>): Promise<T> {
    return whilePresent(this.gone, sent);
  }
}

/** `sent`, a request to a page, or `tab_gone` once the page goes (`gone` aborts) before it answers. */
export function whilePresent<T>(gone: AbortSignal, sent: Promise<T>): Promise<T> {
  if (gone.aborted) {
    sent.catch(() => {});
    return Promise.reject(pageGone());
  }
  return new Promise<T>((resolve, reject) => {
    const unhook = onAbort(gone, () => reject(pageGone()));
    sent.finally(unhook).then(resolve, reject);
  });
}

function pageGone(): AmbiError {
  return new AmbiError('tab_gone', 'The page that ran this call went away (closed, reloaded or navigated) before it answered: the call is not run again');
}
