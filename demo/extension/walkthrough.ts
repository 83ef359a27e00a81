// Offline mode: a scripted model that walks through what the assistant can do on the page, so the
// extension works with no model at all.
import type { ScriptedReply } from 'ambi-web/worker';

export const WALKTHROUGH_PROMPT = 'Show me what you can do on this page (offline walkthrough)';

/** The walkthrough's replies: read the page, list its links, save a note, then ask before filling a field. */
export function walkthroughReplies(): ScriptedReply[] {
  return [
    { text: 'Let me read the page in your tab. ', toolCalls: [{ name: 'read_page', arguments: { maxChars: 600 } }] },
    { text: 'Now its links. ', toolCalls: [{ name: 'find_links', arguments: { limit: 5 } }] },
    {
      text: 'I will keep a note of this visit. ',
      toolCalls: [{ name: 'save_note', arguments: { title: 'Visited page', body: 'Read during the offline walkthrough.' } }],
    },
    {
      text: 'I would like to type a search into the page; that changes the page, so I need your approval first. ',
      toolCalls: [{ name: 'fill_field', arguments: { selector: 'input[name="q"]', value: 'ambi-web' } }],
    },
    'Done. I read the page and its links through tools that run in your tab, saved a note in this browser, and asked before changing the page. This was the offline walkthrough: no model was used.',
  ];
}

/** What the offline model says to anything but the walkthrough. */
export function offlineReply(): ScriptedReply[] {
  return ['Offline mode plays a scripted walkthrough (use the button). To chat freely, connect a model in Settings.'];
}

/** What the offline model says once a resumed run has its results. */
export const RESUMED_OFFLINE: ScriptedReply[] = ['Done: the request interrupted when the panel closed was finished.'];
