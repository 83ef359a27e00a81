// A dedicated tool worker for the demo: CPU work that must not touch the page.
import { defineTool, exposeTools } from '../src/worker/index.js';

const wordStats = defineTool({
  name: 'word_stats',
  description: 'Count words and the most frequent word in a text',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  idempotent: true,
  call: ({ text }) => {
    const words = text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
    const counts = new Map<string, number>();
    for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
    const [top = '', topCount = 0] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? [];
    return { words: words.length, distinct: counts.size, top, topCount, realm: typeof document === 'undefined' ? 'worker' : 'page' };
  },
});

exposeTools([wordStats]);
