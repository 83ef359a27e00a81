import { AmbiError } from '../../errors/ambi-error.js';
import { InvalidOptionError } from '../../errors/invalid-option-error.js';
import type { EngineConfig } from '../../engines/config.js';
import type { SwitchEndpoint } from '../page/switch-endpoint.js';
import { onWorkerDeath } from '../wire/worker-life.js';
import { ChannelPeer } from './channel-peer.js';
import type { ChannelMessage, LeadOrder, ResumableRun } from './lead-protocol.js';
import { PAGE_LOCK, type PageIdentity, PROBE, type ProbeAnswer, type RunnerWorkerFactory } from './protocol.js';

declare global {
  interface WorkerOptions {
    /** Keep a SharedWorker alive for a while after its last page goes (Chrome 148+), so a navigation does not end it. */
    extendedLifetime?: boolean;
  }
}

/** What the page's WorkerRunner hears from its connection to the origin's runner. */
export interface ConnectionHooks {
  /** The runner can no longer be reached (its worker failed to load, say). */
  die(error: AmbiError): void;
  /** This page now talks to another runner (another tab leads: `again`), or leads itself (`lead`). */
  connected(change: { lead: boolean; again: boolean }): void;
}

/** A page's connection to the origin's runner, as its WorkerRunner holds it. */
export interface SharedConnection {
  /** Resolves with the page's identity once the runner may be configured (its lock held, the runner known). */
  ready: Promise<PageIdentity | undefined>;
  close(): void;
}

/** The name of the origin's lead lock and BroadcastChannel, where one tab leads (no SharedWorker). */
const ORIGIN = 'ambi-web:runner';
const TAB_KEY = 'ambi-web:tab';

/**
 * Connect a page to the origin's runner on `endpoint`: a SharedWorker (with `extendedLifetime`,
 * so a navigation does not end it), or, where the browser has none (or the engine needs workers
 * of its own, which a SharedWorker cannot start in Chromium), the runner of the tab that leads
 * (Web Locks), followed through a BroadcastChannel. Without Web Locks (an insecure context) the
 * page has a runner of its own, as without `shared`.
 */
export function connectShared(
  endpoint: SwitchEndpoint,
  make: RunnerWorkerFactory | undefined,
  dedicated: () => Worker,
  engine: EngineConfig,
  hooks: ConnectionHooks,
): SharedConnection {
  const closing = new AbortController();
  const locks = navigator.locks as LockManager | undefined;
  const dedicatedWorker = () => {
    const worker = make ? make('dedicated') : dedicated();
    if (!(worker instanceof Worker)) throw new InvalidOptionError('worker', "called with 'dedicated', it must return a Worker");
    onWorkerDeath(worker, 'runner worker', hooks.die);
    closing.signal.addEventListener('abort', () => worker.terminate());
    return worker;
  };
  if (!locks) {
    endpoint.connect(dedicatedWorker());
    return { ready: Promise.resolve(undefined), close: () => closing.abort() };
  }
  const identity: PageIdentity = { pageId: crypto.randomUUID(), tabId: tabId() };
  const ready = (async () => {
    await holdLock(locks, PAGE_LOCK + identity.pageId, closing.signal);
    if (typeof SharedWorker !== 'function') return lead(endpoint, locks, identity, dedicatedWorker, hooks, closing.signal);
    const worker = make ? make('shared') : defaultSharedWorker();
    if (!(worker instanceof SharedWorker)) throw new InvalidOptionError('worker', "called with 'shared', it must return a SharedWorker");
    const { port } = worker;
    closing.signal.addEventListener('abort', () => port.close());
    worker.addEventListener('error', () => hooks.die(new AmbiError('worker_crashed', 'The shared runner worker failed to load')));
    if (engine.kind === 'local' && !(await nestedWorkers(port, closing.signal))) {
      port.close();
      return lead(endpoint, locks, identity, dedicatedWorker, hooks, closing.signal);
    }
    endpoint.connect(port);
    return identity;
  })();
  ready.catch((error: unknown) => hooks.die(error instanceof AmbiError ? error : new AmbiError('worker_crashed', String(error))));
  return { ready, close: () => closing.abort() };
}

/** The origin's SharedWorker: ambi-web's runner worker, kept alive across a navigation where the browser can. */
function defaultSharedWorker(): SharedWorker {
  return new SharedWorker(new URL('../../../workers/runner.worker.ts', import.meta.url), { type: 'module', name: 'ambi-web', extendedLifetime: true });
}

/**
 * Where one tab leads: queue for the origin's lead lock; meanwhile follow the tab that holds it,
 * through the BroadcastChannel; once granted, start a dedicated runner worker that takes on the
 * runs the last lead would hand on. Resolves once a runner is known.
 */
function lead(
  endpoint: SwitchEndpoint,
  locks: LockManager,
  identity: PageIdentity,
  worker: () => Worker,
  hooks: ConnectionHooks,
  closing: AbortSignal,
): Promise<PageIdentity> {
  const channel = new BroadcastChannel(ORIGIN);
  closing.addEventListener('abort', () => channel.close());
  const peer = new ChannelPeer((data) => channel.postMessage({ kind: 'to-lead', from: identity.pageId, data } satisfies ChannelMessage));
  let handOn: ResumableRun[] = [];
  let current: string | undefined;
  let leading = false;
  return new Promise<PageIdentity>((resolve, reject) => {
    /** A runner is known: the first one lets the page configure; a later one (or leading) tells its WorkerRunner. */
    const connected = (leadId: string, lead: boolean) => {
      const again = current !== undefined;
      current = leadId;
      if (!again) resolve(identity);
      if (lead || again) hooks.connected({ lead, again });
    };
    channel.onmessage = ({ data }: MessageEvent<ChannelMessage>) => {
      if (typeof data !== 'object' || data === null) return;
      if (data.kind === 'to-page' && data.to === identity.pageId) peer.deliver(data.data);
      else if (data.kind === 'runs') handOn = data.runs;
      else if (data.kind === 'lead' && !leading && data.leadId !== current) {
        endpoint.connect(peer);
        connected(data.leadId, false);
      }
    };
    channel.postMessage({ kind: 'who' } satisfies ChannelMessage);
    locks
      .request(ORIGIN, { signal: closing }, async () => {
        leading = true;
        const started = worker();
        const { port1, port2 } = new MessageChannel();
        const order: LeadOrder = { 'ambi-web:lead': { channel: ORIGIN, leadId: crypto.randomUUID(), adopt: handOn } };
        started.postMessage(order, [port2]);
        endpoint.connect(port1);
        connected(order['ambi-web:lead'].leadId, true);
        // Held while this page lives: closing the page (or its runner) passes the lead on.
        await new Promise<void>((release) => closing.addEventListener('abort', () => release()));
      })
      .catch((error: unknown) => {
        if (!closing.aborted) reject(error);
      });
  });
}

/** Hold the Web Lock `name` until `closing` aborts (or the page goes); resolves once it is held. */
function holdLock(locks: LockManager, name: string, closing: AbortSignal): Promise<void> {
  return new Promise<void>((held, failed) => {
    locks
      .request(name, { signal: closing }, () => {
        held();
        return new Promise<void>((release) => closing.addEventListener('abort', () => release()));
      })
      .catch(failed);
  });
}

/** Ask the SharedWorker whether it can start workers of its own (a local model's runtime does). */
function nestedWorkers(port: MessagePort, closing: AbortSignal): Promise<boolean> {
  return new Promise<boolean>((resolve, reject) => {
    const answer = (event: MessageEvent) => {
      const data = event.data as Partial<ProbeAnswer> | null;
      if (!data?.[PROBE]) return;
      port.removeEventListener('message', answer);
      resolve(data[PROBE].nestedWorkers === true);
    };
    port.addEventListener('message', answer);
    port.start();
    port.postMessage({ [PROBE]: 1 });
    closing.addEventListener('abort', () => reject(new AmbiError('closed', 'The runner was closed')));
  });
}

/** This tab's id: the same across its same-origin navigations and reloads (its sessionStorage), new for a new tab. */
function tabId(): string {
  try {
    const kept = sessionStorage.getItem(TAB_KEY);
    if (kept) return kept;
    const made = crypto.randomUUID();
    sessionStorage.setItem(TAB_KEY, made);
    return made;
  } catch {
    // No sessionStorage (a sandboxed frame): every page is a tab of its own.
    return crypto.randomUUID();
  }
}
