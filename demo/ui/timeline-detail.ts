// The chosen lane's detail below the lanes: a call's arguments and result (or its failure), a
// model turn's time, always as text (textContent: never parsed as HTML).
import { patchChildren } from './dom-patch.js';
import { durationText } from './timeline-axis.js';
import { type Lane, laneStatusText } from './timeline-lanes.js';

/** The chosen lane's arguments and result, as text. */
export function showDetail(detail: HTMLElement, lane: Lane): void {
  const heading = document.createElement('h4');
  heading.textContent = `${lane.name}${lane.kind === 'call' ? ` (${lane.id})` : ''}`;
  const parts: HTMLElement[] = [heading];
  const block = (title: string, className: string, value: string) => {
    const caption = document.createElement('h5');
    caption.textContent = title;
    const pre = document.createElement('pre');
    pre.className = className;
    pre.textContent = value;
    parts.push(caption, pre);
  };
  if (lane.kind === 'call') {
    block('Arguments', 'detail-arguments', pretty(lane.arguments));
    const result = lane.result;
    if (!result) block('Result', 'detail-result', laneStatusText(lane));
    else if (result.ok)
      block(
        `Result (${result.attempts} ${result.attempts === 1 ? 'attempt' : 'attempts'}, ${durationText(result.durationMs)})`,
        'detail-result',
        pretty(result.output),
      );
    else block(`Failed (${result.error.code})`, 'detail-result', result.error.message);
  } else {
    block('Model turn', 'detail-result', `${durationText((lane.end ?? lane.start) - lane.start)} from the request to the reply's last part`);
  }
  patchChildren(detail, parts);
}

/** A value as readable text: a string as is, anything else as indented JSON. */
function pretty(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}
