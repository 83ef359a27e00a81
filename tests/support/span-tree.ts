// Finished OpenTelemetry spans as an indented list of names, children under their parent in the
// order they started (then by name): the shape a test compares, whatever realm made the spans.

/** What the tree needs of a finished span (the SDK's ReadableSpan has it; so does a span posted from another realm as plain data). */
export interface SpanShape {
  name: string;
  startTime: [number, number];
  spanContext(): { spanId: string };
  parentSpanContext?: { spanId: string } | undefined;
}

export function spanTree(spans: readonly SpanShape[]): string[] {
  const ids = new Set(spans.map((span) => span.spanContext().spanId));
  const children = new Map<string | undefined, SpanShape[]>();
  for (const span of spans) {
    const parent = span.parentSpanContext?.spanId;
    const key = parent !== undefined && ids.has(parent) ? parent : undefined;
    children.set(key, [...(children.get(key) ?? []), span]);
  }
  const lines: string[] = [];
  const walk = (parent: string | undefined, depth: number) => {
    // Ties (a browser's clock is coarse) by name: a request's span before a call it proposed.
    const started = (children.get(parent) ?? []).sort(
      (a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1] || a.name.localeCompare(b.name),
    );
    for (const span of started) {
      lines.push(`${'  '.repeat(depth)}${span.name}`);
      walk(span.spanContext().spanId, depth + 1);
    }
  };
  walk(undefined, 0);
  return lines;
}
