// answer-100k-tokens: the driver's side (the page is bench/browser/pages/answer.ts). Each run in a
// fresh page, ours and the AI SDK app's worker taking turns; a round is a pair of runs. (Not traced:
// a trace of the AI SDK app's 100,000 Comlink messages crashed the page.)
import type { Browser } from 'playwright';
import { LONG_ANSWER_TOKENS } from '../lib/scripted-model.js';
import { median, pairedFigure, type Measurement } from '../lib/stats.js';
import type { OpenPage } from './output-benches.js';
import type { AnswerOptions, AnswerResult } from './pages/answer.js';

/** The AI SDK app takes about 20 s an answer on this machine, ours under 1 s: 3 rounds, far from the target either way. */
const ROUNDS = 3;

/** ms from the question to a 100,000-token answer whole on the page, ours over the AI SDK app's. */
export async function answerTokens(browser: Browser, origin: string, openPage: OpenPage): Promise<Measurement[]> {
  const runs: Record<AnswerOptions['side'], AnswerResult[]> = { ours: [], theirs: [] };
  for (let i = 0; i < ROUNDS; i++) {
    for (const side of i % 2 ? (['theirs', 'ours'] as const) : (['ours', 'theirs'] as const)) {
      const page = await openPage(browser, origin, 'answer');
      runs[side].push((await page.evaluate((o) => window.bench!.run(o as never), { side } as never)) as AnswerResult);
      await page.close();
    }
  }
  const describe = (side: AnswerOptions['side']) => {
    const r = runs[side];
    return `${side}: ${median(r.map((x) => x.ms)).toFixed(0)} ms, text handed to the page ${median(r.map((x) => x.pieces)).toFixed(0)} times`;
  };
  return [
    {
      name: 'answer-100k-tokens',
      unit: 'ms/answer',
      baseline:
        "the AI SDK app's worker (bench/bundle/theirs: streamText, @ai-sdk/openai-compatible, each delta to the page over Comlink), same server, same page",
      ...pairedFigure(
        runs.ours.map((r) => r.ms),
        runs.theirs.map((r) => r.ms),
      ),
      target: '<= 0.2',
      note: `from the question to the whole answer on the page: ${LONG_ANSWER_TOKENS.toLocaleString('en')} deltas of 4 characters from the scripted model, each run in a fresh page; ${describe('ours')}; ${describe('theirs')}; ${ROUNDS} rounds`,
    },
  ];
}
