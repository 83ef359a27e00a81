// Which model the example talks to: a scripted one by default (no network), or an
// OpenAI-compatible server the person names in the form (kept for this tab only).
import { type EngineConfig, openAICompatible, scriptedEngine } from 'ambi-web/worker';

const KEY = 'ambi-web-ai-sdk-example-engine';

/** A fixed conversation: add two items, then empty the list (which asks for approval). */
const SCRIPT = scriptedEngine([
  {
    toolCalls: [
      { name: 'add_item', arguments: { item: 'milk' } },
      { name: 'add_item', arguments: { item: 'bread' } },
    ],
  },
  'I added milk and bread to your list.',
  { toolCalls: [{ name: 'clear_list', arguments: {} }] },
  'The list is empty now.',
]);

interface Saved {
  baseURL: string;
  model: string;
  apiKey?: string;
}

export function chosenEngine(): { engine: EngineConfig; label: string } {
  const saved = sessionStorage.getItem(KEY);
  if (!saved) return { engine: SCRIPT, label: 'scripted model (no network)' };
  const { baseURL, model, apiKey } = JSON.parse(saved) as Saved;
  return { engine: openAICompatible({ baseURL, model, ...(apiKey ? { apiKey } : {}) }), label: `${model} at ${baseURL}` };
}

/** Remember the server the form names (or forget it when its URL is empty), for the next load of this tab. */
export function chooseEngine(form: HTMLFormElement): void {
  const data = new FormData(form);
  const baseURL = String(data.get('baseURL') ?? '').trim();
  if (baseURL === '') sessionStorage.removeItem(KEY);
  else sessionStorage.setItem(KEY, JSON.stringify({ baseURL, model: String(data.get('model') ?? '').trim(), apiKey: String(data.get('apiKey') ?? '') }));
}
