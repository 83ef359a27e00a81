// The spans of a run made on the page of a WorkerRunner (a Tracer cannot cross to the worker):
// the same SpanBuilder as in-process, fed with the run's events as they arrive. Loaded by the page
// only for a run given a tracer, with `@opentelemetry/api` (an optional peer).
import type { Tracer } from '@opentelemetry/api';
import type { EngineConfig } from '../../engines/config.js';
import { engineInfo } from '../../engines/engine-info.js';
import { SpanBuilder } from './span-builder.js';

/** A builder for a run of a runner on `engine`, its top span opened now. */
export async function pageSpans(
  tracer: unknown,
  engine: EngineConfig,
  conversation: string | undefined,
  onFailure: (error: unknown) => void,
): Promise<SpanBuilder> {
  const api = await import('@opentelemetry/api');
  return new SpanBuilder(api, tracer as Tracer, { engine: engineInfo(engine), conversation }, onFailure);
}
