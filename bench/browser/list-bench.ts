// conversations-list-1000: the driver's side (the page is bench/browser/pages/conversations.ts).
import type { Browser } from 'playwright';
import { median, pairedFigure, spread, type Measurement } from '../lib/stats.js';
import type { OpenPage } from './output-benches.js';
import type { ListOptions, ListRound } from './pages/conversations.js';

const pct = (value: number) => `${(value * 100).toFixed(0)}%`;

/** list() of 1,000 stored conversations over idb's getAll of the records it reads. */
export async function conversationsList(browser: Browser, origin: string, openPage: OpenPage): Promise<Measurement[]> {
  const page = await openPage(browser, origin, 'conversations');
  const options: ListOptions = { conversations: 1000, messages: 20, rounds: 15, warmup: 3 };
  const rounds = (await page.evaluate((o) => window.bench!.run(o as never), options as never)) as ListRound[];
  await page.close();
  const side = (name: keyof ListRound) => rounds.map((round) => round[name]);
  return [
    {
      name: 'conversations-list-1000',
      unit: 'ms',
      baseline: "idb's getAll of the same database's conversations store (the records list() reads)",
      ...pairedFigure(side('ours'), side('raw')),
      target: '<= 1.5',
      note: `IndexedDbConversationStore.list() of ${options.conversations.toLocaleString('en')} conversations of ${options.messages} messages each (their ids, lengths and times, oldest first); counting every conversation's messages in one transaction, as list() did before it read the records' lengths: ${median(side('counted')).toFixed(1)} ms; ${options.rounds} rounds ±${pct(spread(side('ours')))}/±${pct(spread(side('raw')))}`,
    },
  ];
}
