// shared-attach-latency: the driver's side (the page is bench/browser/pages/shared-attach.ts).
import type { Browser } from 'playwright';
import { pairedFigure, spread, type Measurement } from '../lib/stats.js';
import type { OpenPage } from './output-benches.js';
import type { SharedAttachOptions, SharedAttachResult } from './pages/shared-attach.js';

const pct = (value: number) => `${(value * 100).toFixed(0)}%`;

/** A new page attached to a run going on in the origin's shared runner, to its first event, against a new page's fresh run, to its first. */
export async function sharedAttachLatency(browser: Browser, origin: string, openPage: OpenPage): Promise<Measurement[]> {
  const page = await openPage(browser, origin, 'shared-attach');
  const options: SharedAttachOptions = { rounds: 40, warmup: 5 };
  const { rounds, stateEvents } = (await page.evaluate((o) => window.bench!.run(o as never), options as never)) as SharedAttachResult;
  await page.close();
  const attach = rounds.map((round) => round.attach);
  const fresh = rounds.map((round) => round.fresh);
  return [
    {
      name: 'shared-attach-latency',
      unit: 'ms',
      baseline: "a new page's fresh run on the same shared runner, to its first event",
      ...pairedFigure(attach, fresh),
      target: '<= 1.5',
      note: `each side a new runner of the page (a new port of the origin's SharedWorker, a page lock, the same configuration, whose agent is already built), closed after; the run attached to had said 20 KB and waited for approval: the attaching page got ${stateEvents} events as its state so far; ${rounds.length} rounds (sides alternating first) ±${pct(spread(attach))}/±${pct(spread(fresh))}`,
    },
  ];
}
