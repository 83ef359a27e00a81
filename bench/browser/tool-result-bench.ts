// tool-result-1mb: the driver's side (the page is bench/browser/pages/tool-result.ts; the AI SDK
// app's route is bench/lib/ai-sdk-route.ts, served with the pages).
import type { Browser } from 'playwright';
import { median, pairedFigure, spread, type Measurement } from '../lib/stats.js';
import type { OpenPage } from './output-benches.js';
import type { ToolResultOptions, ToolResultResult, ToolResultSide } from './pages/tool-result.js';

const pct = (value: number) => `${(value * 100).toFixed(0)}%`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

/** ms from a 1 MB page-tool result returned to the model's next request arrived with it, ours over the AI SDK app's. */
export async function toolResult1mb(browser: Browser, origin: string, openPage: OpenPage): Promise<Measurement[]> {
  const page = await openPage(browser, origin, 'tool-result');
  const options: ToolResultOptions = { rounds: 21, warmup: 3 };
  const result = (await page.evaluate((o) => window.bench!.run(o as never), options as never)) as ToolResultResult;
  await page.close();
  const of = (side: 'ours' | 'theirs', pick: (s: ToolResultSide) => number) => result.rounds.map((round) => pick(round[side]));
  const at = (side: 'ours' | 'theirs', pick: (s: ToolResultSide) => number) => median(of(side, pick));
  const ours = of('ours', (s) => s.ms);
  const theirs = of('theirs', (s) => s.ms);
  const { clock } = result;
  return [
    {
      name: 'tool-result-1mb',
      unit: 'ms',
      baseline:
        "the AI SDK app's same path: @ai-sdk/react's Chat (what useChat makes), onToolCall + addToolOutput, sendAutomaticallyWhen lastAssistantMessageIsCompleteWithToolCalls, the next request to the app's route POST /api/chat (ai@7 convertToModelMessages, streamText with @ai-sdk/openai-compatible, the UI message stream piped back), same server, same page",
      ...pairedFigure(ours, theirs),
      target: '<= 0.5',
      note: `from the page tool's function returning ${kb(result.resultChars)} of JSON (${result.resultChars.toLocaleString('en')} characters: 3,135 listings, bench/lib/listings.ts) to the model's next request, the one carrying it, arrived whole at the scripted model (stamped there; the server's clock brought to the page's by the quickest of 40 pings, round trip ${clock.roundTrip.toFixed(2)} ms, offset ${clock.offset.toFixed(2)} ms, moved ${result.clockDrift.toFixed(2)} ms over the rounds); ours: createWorkerRunner with openAICompatible, the tool on the page, every run event read; the model's request carried ${kb(at('ours', (s) => s.modelBytes))} for ours (the result as the model reads it: capped at the agent's maxResultChars) and ${kb(at('theirs', (s) => s.modelBytes))} for theirs (the whole result), theirs' page sent its route ${kb(at('theirs', (s) => s.routeBytes))}; ours' page got ${kb(at('ours', (s) => s.backInEvent))} of JSON back in tool_finished and ${kb(at('ours', (s) => s.backInResult))} in the run's result; the whole turn, to the answer on the page: ours ${at('ours', (s) => s.turnMs).toFixed(1)} ms, theirs ${at('theirs', (s) => s.turnMs).toFixed(1)} ms (ratio ${median(result.rounds.map((r) => r.ours.turnMs / r.theirs.turnMs)).toFixed(2)}); ${options.rounds} rounds ±${pct(spread(ours))}/±${pct(spread(theirs))}, taking turns in one page, each a fresh conversation`,
    },
  ];
}
