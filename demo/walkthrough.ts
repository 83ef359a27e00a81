// Offline mode: a scripted model that walks through every capability, so the demo works with no model at all.
import type { ScriptedReply } from 'ambi-web/worker';

export const WALKTHROUGH_PROMPT = 'Show me what you can do (offline walkthrough)';

export const SAMPLE_CSV = `month,visitors,signups
jan,1200,48
feb,1350,52
mar,1610,71
apr,1580,64`;

/** The scripted replies of the walkthrough: one run, every kind of tool, a leaf, and an approval. */
export function walkthroughReplies(): ScriptedReply[] {
  return [
    {
      text: 'I will add a packing list and put its title in the editor. ',
      toolCalls: [
        { name: 'add_note', arguments: { title: 'Lisbon packing list', body: 'Light jacket, walking shoes, sunscreen.' } },
        { name: 'fill_field', arguments: { field: 'title', value: 'Lisbon packing list' } },
        { name: 'highlight', arguments: { selector: '#editor' } },
      ],
    },
    { text: 'Now the numbers in the data panel, computed in a worker. ', toolCalls: [{ name: 'csv_stats', arguments: { csv: SAMPLE_CSV } }] },
    {
      text: 'I will ask a helper agent (a leaf) to summarise the travel notes. ',
      toolCalls: [{ name: 'spawn_leaf', arguments: { task: 'Summarise the travel notes in one sentence.' } }],
    },
    { toolCalls: [{ name: 'search_notes', arguments: { query: 'trip' } }] }, // the leaf's first turn
    'Travel: Lisbon, with the tram 28 tour and pastries in Belém.', // the leaf's answer
    {
      // From here on the model has read notes and the page (others may have written them): what it
      // proposes that changes something is asked about, and the card says what it read.
      text: 'Let me read the page and look for the groceries note. ',
      toolCalls: [
        { name: 'read_page', arguments: { selector: '#notes' } },
        { name: 'search_notes', arguments: { query: 'groceries' } },
      ],
    },
    {
      text: 'The groceries are bought, so I will delete that note; I need your approval first. ',
      toolCalls: [{ name: 'delete_note', arguments: { id: 'n-groceries' } }],
    },
    'Done. I added a note, filled the editor, computed statistics in a worker, delegated a summary to a leaf, read the page and searched the notes, and asked before deleting (the card said what I had read). This was the offline walkthrough: no model was used.',
  ];
}

/** What the offline model says to anything but the walkthrough. */
export function offlineReply(): ScriptedReply[] {
  return ['Offline mode plays a scripted walkthrough (use the button). To chat freely, connect an OpenAI-compatible endpoint in Settings.'];
}
