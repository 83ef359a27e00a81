// The driver's side of grammar-cost and long-conversation (pages in bench/browser/pages): each
// opens its page, runs it, and turns its rounds into Measurements.
import type { Browser, Page } from 'playwright';
import { median, pairedFigure, spread, type Measurement } from '../lib/stats.js';
import type { GrammarCostOptions, GrammarCostRound } from './pages/local-grammar-cost.js';
import type { LongConversationOptions, LongConversationRound } from './pages/long-conversation.js';

export type OpenPage = (browser: Browser, origin: string, name: string) => Promise<Page>;
export type RunPage = <O, R>(page: Page, options: O, label: string) => Promise<R>;

const pct = (value: number) => `${(value * 100).toFixed(0)}%`;

/** Tokens per second under the tool-call grammar over tokens per second unconstrained, at a 32K vocabulary (target >= 0.5) and a 152K one (information). */
export async function grammarCost(browser: Browser, origin: string, openPage: OpenPage, runPage: RunPage): Promise<Measurement[]> {
  const out: Measurement[] = [];
  for (const [name, vocabSize, target] of [
    ['grammar-cost-32k', 32_000, '>= 0.5'],
    ['grammar-cost-152k', 152_000, null],
  ] as const) {
    const page = await openPage(browser, origin, 'local-grammar-cost');
    const options: GrammarCostOptions = { rounds: 7, warmup: 1, maxTokens: 48, vocabSize };
    const rounds = await runPage<GrammarCostOptions, GrammarCostRound[]>(page, options, name);
    await page.close();
    const rate = (side: { tokens: number; ms: number }) => (side.tokens / side.ms) * 1000;
    const constrained = rounds.map((r) => rate(r.constrained));
    const free = rounds.map((r) => rate(r.free));
    out.push({
      name,
      unit: 'tokens/s',
      baseline: `the same generated model (${vocabSize.toLocaleString('en')}-token vocabulary), same prompt, unconstrained`,
      ...pairedFigure(constrained, free),
      target,
      note: `llama.cpp (wllama) in the page, one thread; ${options.rounds} rounds ±${pct(spread(constrained))}/±${pct(spread(free))}; a call is ${median(rounds.map((r) => r.constrained.tokens))} tokens in ${median(rounds.map((r) => r.constrained.ms)).toFixed(0)} ms, free text ${median(rounds.map((r) => r.free.tokens))} tokens in ${median(rounds.map((r) => r.free.ms)).toFixed(0)} ms`,
    });
  }
  return out;
}

/** A run's cost on a 10,000-message conversation over its cost on a 10-message one (target <= 2). */
export async function longConversation(browser: Browser, origin: string, openPage: OpenPage, runPage: RunPage): Promise<Measurement[]> {
  const page = await openPage(browser, origin, 'long-conversation');
  const options: LongConversationOptions = { long: 10_000, short: 10, rounds: 9, warmup: 2 };
  const rounds = await runPage<LongConversationOptions, LongConversationRound[]>(page, options, 'long-conversation');
  await page.close();
  const long = rounds.map((r) => r.longMs);
  const short = rounds.map((r) => r.shortMs);
  return [
    {
      name: 'long-conversation',
      unit: 'ms/run',
      baseline: `the same runner on a ${options.short}-message conversation`,
      ...pairedFigure(long, short),
      target: '<= 2',
      note: `${options.long.toLocaleString('en')} vs ${options.short} stored messages, IndexedDB store in the runner worker, context budget 4,000 tokens; ${options.rounds} rounds ±${pct(spread(long))}/±${pct(spread(short))}`,
    },
  ];
}
