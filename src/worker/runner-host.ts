import { AmbiError } from '../errors/ambi-error.js';
import { Agent } from '../runner/agent.js';
import { ChatRunner, type Run } from '../runner/chat-runner.js';
import type { EventChannel, RunEvent } from '../runner/events.js';
import { IndexedDbConversationStore } from '../store/indexeddb-conversation-store.js';
import { IndexedDbSnapshotStore } from '../store/indexeddb-snapshot-store.js';
import { IndexedDbToolCallJournal } from '../store/indexeddb-tool-call-journal.js';
import { MemorySnapshotStore } from '../store/memory-snapshot-store.js';
import { remoteTool } from './descriptor.js';
import type { RunnerConfig, RunnerWorkerApi, ToolDescriptor, ToolInvoker } from './protocol.js';

/** The runner worker's side of the wire: an Agent and a ChatRunner, driven by the page. */
export function createRunnerHost(): RunnerWorkerApi {
  let agent: Agent | undefined;
  let runner: ChatRunner | undefined;
  const runs = new Map<string, Run>();
  const outboxes = new Map<string, RunEvent[]>();

  const ready = () => {
    if (!agent || !runner) throw new AmbiError('not_configured', 'The runner worker was used before it was configured');
    return { agent, runner };
  };
  const find = (runId: string): Run => {
    const run = runs.get(runId);
    if (!run) throw new AmbiError('unknown_run', `No run with id ${runId}`);
    return run;
  };

  return {
    async configure(config: RunnerConfig) {
      const stores = config.database ? await openStores(config.database) : undefined;
      agent = await Agent.make(config.engine, {
        ...(config.preamble !== undefined ? { preamble: config.preamble } : {}),
        ...(config.maxResultChars !== undefined ? { maxResultChars: config.maxResultChars } : {}),
        ...(config.validation !== undefined ? { validation: config.validation } : {}),
        ...(stores ? { conversations: stores.conversations, journal: stores.journal } : {}),
      });
      if (config.leaf) agent.leaf({ ...config.leaf, store: stores?.snapshots ?? new MemorySnapshotStore() });
      runner = new ChatRunner(config.concurrency);
    },
    async registerTool(descriptor: ToolDescriptor, invoker: ToolInvoker) {
      // Registration checks the schema and compiles its validator here, where calls are validated
      // (a Standard Schema tool's JSON Schema; its own realm validates again with the Standard Schema).
      ready().agent.tool(remoteTool(descriptor, invoker));
    },
    async startRun(runId, input, options) {
      const { agent, runner } = ready();
      runs.set(runId, runner.run(agent, input, { ...options, runId }));
    },
    async nextEvents(runId) {
      const run = find(runId);
      let outbox = outboxes.get(runId);
      if (!outbox?.length) {
        const batch = await (run.events as EventChannel).take();
        if (!batch) return null;
        outbox = forWire(batch);
        outboxes.set(runId, outbox);
      }
      return takeSlice(outbox);
    },
    async result(runId) {
      return find(runId).result;
    },
    async abort(runId, reason) {
      find(runId).abort(reason);
    },
    async approve(runId, callId) {
      find(runId).approve(callId);
    },
    async deny(runId, callId, reason) {
      find(runId).deny(callId, reason);
    },
    async release(runId) {
      runs.delete(runId);
      outboxes.delete(runId);
    },
  };
}

/** Most text sent in one message: a huge reply crosses in slices the page can take between other work. */
const MAX_WIRE_TEXT = 64 * 1024;

/** Remove and return events from the front of `outbox`, up to about MAX_WIRE_TEXT characters of text. */
function takeSlice(outbox: RunEvent[]): RunEvent[] {
  let size = 0;
  let count = 0;
  while (count < outbox.length && (count === 0 || size < MAX_WIRE_TEXT)) {
    const event = outbox[count]!;
    if (event.type === 'text_delta') size += event.text.length;
    count++;
  }
  return outbox.splice(0, count);
}

/**
 * Shape a batch for the wire: slice long text deltas, and drop the result from the run's
 * own `run_finished` (the page fetches it once, with `result()`, instead of twice; a
 * leaf's run_finished keeps its result, which is not the run's).
 */
function forWire(batch: RunEvent[]): RunEvent[] {
  const out: RunEvent[] = [];
  for (const event of batch) {
    if (event.type === 'text_delta' && event.text.length > MAX_WIRE_TEXT) {
      for (let at = 0; at < event.text.length; at += MAX_WIRE_TEXT) out.push({ ...event, text: event.text.slice(at, at + MAX_WIRE_TEXT) });
    } else if (event.type === 'run_finished' && !event.leafId) {
      out.push({ ...event, result: undefined as never });
    } else out.push(event);
  }
  return out;
}

/** The three stores on one IndexedDB database (one shared connection). */
async function openStores(database: string) {
  const [conversations, journal, snapshots] = await Promise.all([
    IndexedDbConversationStore.open(database),
    IndexedDbToolCallJournal.open(database),
    IndexedDbSnapshotStore.open(database),
  ]);
  return { conversations, journal, snapshots };
}
