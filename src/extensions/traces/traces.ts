// The traces extension: a traced run (`RunOptions.tracer`) in this realm, its spans made by the
// SpanBuilder from each event as it is emitted, its leaves' included (their events pass through
// the run's own emit).
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
  return {
    name: 'traces',
    event(event) {
      spans.event(event);
      return event;
    },
    traceContext: (callId) => spans.traceContext(callId),
    // The run's last event is not emitted through the extensions: its end is taken from the outcome.
    end(outcome) {
      spans.event(outcome.ok ? { type: 'run_finished', result: outcome.result } : { type: 'run_failed', error: runFailure(outcome.error) });
    },
  };
}
