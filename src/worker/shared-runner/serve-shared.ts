import { onAbort } from '../../util/abort-source.js';
import type { ServeRunnerOptions } from '../runner/runner-agent.js';
import { ChannelPeer } from './channel-peer.js';
import { OriginHost } from './origin-host.js';
import type { ChannelMessage, LeadOrder } from './lead-protocol.js';
import { PROBE, type ProbeAnswer } from './protocol.js';

/**
 * In a SharedWorker: the origin's runner, and what to do with each page's port. A page may first
 * ask whether this worker can start workers of its own (a local model needs them), which a
 * SharedWorker in Chromium cannot: it then leads from a dedicated worker instead.
 */
export function originOfPorts(served: ServeRunnerOptions): (port: MessagePort) => void {
  const host = new OriginHost(served);
  return (port) => {
    port.addEventListener('message', (event: MessageEvent) => {
      if (isRecord(event.data) && PROBE in event.data) {
        const answer: ProbeAnswer = { [PROBE]: { nestedWorkers: typeof Worker === 'function' } };
        port.postMessage(answer);
      }
    });
    host.connect(port, true);
  };
}

/**
 * In the dedicated worker a leading tab started (where there is no SharedWorker): the origin's
 * runner. The leading page connects on `port`; the other tabs' pages through the origin's
 * BroadcastChannel, each as a peer. The runs the tab that led before handed on are adopted, and
 * each change of the runs this one would hand on is announced, for the tab that leads next.
 */
export function leadOrigin(order: LeadOrder['ambi-web:lead'], port: MessagePort, served: ServeRunnerOptions): void {
  const { leadId } = order;
  const channel = new BroadcastChannel(order.channel);
  const post = (message: ChannelMessage) => channel.postMessage(message);
  const host = new OriginHost(served, { runs: (runs) => post({ kind: 'runs', leadId, runs }) });
  host.adopt(order.adopt);
  host.connect(port, true);
  const peers = new Map<string, ChannelPeer>();
  channel.onmessage = ({ data }: MessageEvent<ChannelMessage>) => {
    if (!isRecord(data)) return;
    if (data.kind === 'who') post({ kind: 'lead', leadId });
    if (data.kind !== 'to-lead' || typeof data.from !== 'string') return;
    const from = data.from;
    let peer = peers.get(from);
    if (!peer) {
      const made = new ChannelPeer((message) => post({ kind: 'to-page', to: from, data: message }));
      peers.set(from, made);
      const client = host.connect(made, false);
      onAbort(client.gone, () => peers.delete(from));
      peer = made;
    }
    peer.deliver(data.data);
  };
  post({ kind: 'lead', leadId });
}

/** The order a leading page posts first to the dedicated worker it started, if `data` is one. */
export function leadOrderOf(data: unknown): LeadOrder['ambi-web:lead'] | undefined {
  if (!isRecord(data)) return undefined;
  const order = (data as Partial<LeadOrder>)['ambi-web:lead'];
  return isRecord(order) && typeof order.channel === 'string' && typeof order.leadId === 'string' && Array.isArray(order.adopt) ? order : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
