// The traces extension: a traced run (`RunOptions.tracer`), its spans made by the SpanBuilder from
// each event as it is emitted (`event`), its leaves' included (their events pass through the run's
// own emit), ended with the run (`end`). It serves the run's tools their call's trace context
// (`RunScope.traceContext`) through the run tree's state.
import type { Tracer } from '@opentelemetry/api';
import { errorMessage } from '../../errors/error-message.js';
import type { RunExtension } from '../../runner/extension.js';
import { runFailure } from '../../runner/run-failure.js';
import type { RunSetup } from '../../runner/run-setup.js';
import { type OtelApi, SpanBuilder } from './span-builder.js';

export function tracesExtension(setup: RunSetup, api: OtelApi): RunExtension {
  const { options, agent } = setup;
  const failed = (error: unknown) => setup.emit({ type: 'warning', code: 'trace_failed', message: `Tracing stopped, the run goes on: ${errorMessage(error)}` });
  const spans = new SpanBuilder(
    api,
    options.tracer as Tracer,
    { engine: agent.engineInfo ?? { provider: '_OTHER' }, conversation: options.conversation },
    failed,
  );
  // A tracer whose spans cross to where they are exported (a WorkerRunner's page) says when they have.
  const flushed = flushOf(options.tracer);
  setup.tree.of('traceContext', () => async (callId: string) => {
    await flushed?.();
    return spans.traceContext(callId);
  });
  return {
    name: 'traces',
    event(event) {
      spans.event(event);
      return event;
    },
    // The run's last event is not emitted through the extensions: its end is taken from the outcome.
    // Spans exported elsewhere have all arrived there before the run's result does.
    async end(outcome) {
      spans.event(outcome.ok ? { type: 'run_finished', result: outcome.result } : { type: 'run_failed', error: runFailure(outcome.error) });
      await flushed?.().catch(() => {});
    },
  };
}

/** A tracer's `forceFlush`, where it has one (read once: a tracer that throws on a read is no tracer's failure to the run). */
function flushOf(tracer: unknown): (() => Promise<void>) | undefined {
  try {
    const flush = (tracer as { forceFlush?: unknown }).forceFlush;
    return typeof flush === 'function' ? () => Promise.resolve(flush.call(tracer)) : undefined;
  } catch {
    return undefined;
  }
}
