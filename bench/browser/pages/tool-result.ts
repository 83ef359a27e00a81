// tool-result-1mb: a page tool returns about 1 MB of listings (bench/lib/listings.ts) and the model
// asks for nothing more; timed from the tool's function returning its value (the page stamps it)
// to the model's next request, the one carrying the result, arrived whole at the scripted model
// (the server stamps it, and says so in its answer), the server's clock brought to the page's by
// pings of GET /clock. The turn, to the answer on the page, is timed too, on the page's clock.
// Ours: createWorkerRunner (the runner in its Web Worker) with openAICompatible, the tool on the
// page. Theirs: the AI SDK app as its docs build client-side tools: @ai-sdk/react's Chat (what
// useChat makes) with DefaultChatTransport to the app's route (bench/lib/ai-sdk-route.ts),
// `onToolCall` running the tool and `addToolOutput` giving its output,
// `sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls` sending the next request.
// The two take turns in one page, a fresh conversation (a fresh Chat) each time.
import { Chat } from '@ai-sdk/react';
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithToolCalls, type UIMessage } from 'ai';
import { createWorkerRunner, defineTool, openAICompatible } from '../../../src/worker/index.js';
import { LISTINGS_TOOL, listings, type Receipt } from '../../lib/listings.js';
import { type ClockOffset, serverClockOffset } from '../../lib/server-clock.js';
import { expose } from './expose.js';

export interface ToolResultOptions {
  rounds: number;
  warmup: number;
}

/** One side's turn: ms from the tool returning to its result's request arrived whole, and to the answer on the page; the bytes it cost. */
export interface ToolResultSide {
  ms: number;
  turnMs: number;
  /** Bytes of the model's request that carried the result. */
  modelBytes: number;
  /** Theirs: bytes of the page's request to the app's route that carried it. */
  routeBytes: number;
  /** Ours: characters of JSON the page was handed back in `tool_finished`, and in the run's result. */
  backInEvent: number;
  backInResult: number;
}

export interface ToolResultRound {
  ours: ToolResultSide;
  theirs: ToolResultSide;
}

export interface ToolResultResult {
  rounds: ToolResultRound[];
  /** Characters of the result's JSON. */
  resultChars: number;
  clock: ClockOffset;
  /** The offset after the rounds less the one before (ms). */
  clockDrift: number;
}

const now = () => performance.timeOrigin + performance.now();
const question = 'List every listing on this page.';

/** A turn's stamps (the page's clock, but `receipt.receivedAt`: the server's) and bytes, before the clocks are brought together. */
type Turn = Omit<ToolResultSide, 'ms' | 'turnMs' | 'modelBytes'> & { returnedAt: number; answeredAt: number; receipt: Receipt };

function receiptOf(text: string, side: string): Receipt {
  try {
    return JSON.parse(text) as Receipt;
  } catch {
    throw new Error(`${side}: the answer is not a receipt: ${text.slice(0, 200)}`);
  }
}

/** Ours: one run of the runner, every event read; `returnedAt` set by the tool. */
function oursSide(baseURL: string) {
  let returnedAt = 0;
  const runner = createWorkerRunner({ engine: openAICompatible({ baseURL, model: 'm' }) }).tool(
    defineTool({
      name: LISTINGS_TOOL.name,
      description: LISTINGS_TOOL.description,
      parameters: { type: 'object', properties: {} },
      readOnly: true,
      call: () => {
        const value = listings();
        returnedAt = now();
        return value;
      },
    }),
  );
  const turn = async (): Promise<Turn> => {
    const run = runner.run(question);
    let finished: unknown;
    for await (const event of run.events) if (event.type === 'tool_finished') finished = event.result;
    const result = await run.result;
    const answeredAt = now();
    if (result.toolResults.length !== 1 || !result.toolResults[0]!.ok) throw new Error(`ours: ${JSON.stringify(result.toolResults).slice(0, 300)}`);
    return {
      returnedAt,
      answeredAt,
      receipt: receiptOf(result.text, 'ours'),
      routeBytes: 0,
      backInEvent: JSON.stringify(finished).length,
      backInResult: JSON.stringify(result).length,
    };
  };
  return { turn, close: () => runner.close() };
}

/** Theirs: one conversation of a fresh Chat; `returnedAt` set as the tool's output is handed to `addToolOutput`. */
async function theirsTurn(): Promise<Turn> {
  let returnedAt = 0;
  let routeBytes = 0;
  let answered: (message: UIMessage) => void = () => {};
  let failed: (error: Error) => void = () => {};
  const done = new Promise<UIMessage>((resolve, reject) => {
    answered = resolve;
    failed = reject;
  });
  const chat: Chat<UIMessage> = new Chat<UIMessage>({
    transport: new DefaultChatTransport({
      api: '/api/chat',
      // Counts what the page sends the route; the request itself is the browser's fetch.
      fetch: (input, init) => {
        routeBytes = typeof init?.body === 'string' ? init.body.length : 0;
        return fetch(input, init);
      },
    }),
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls,
    onToolCall({ toolCall }) {
      if (toolCall.toolName !== LISTINGS_TOOL.name) return;
      const output = listings();
      returnedAt = now();
      // Not awaited, as the AI SDK's docs say.
      void chat.addToolOutput({ tool: LISTINGS_TOOL.name, toolCallId: toolCall.toolCallId, output });
    },
    onFinish({ message }) {
      if (message.parts.some((part) => part.type === 'text')) answered(message);
    },
    onError: (error) => failed(error),
  });
  await chat.sendMessage({ text: question });
  const message = await done;
  const answeredAt = now();
  const text = message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
  const receipt = receiptOf(text, 'theirs');
  // The baseline did the work: its model's request carried the whole result.
  if (receipt.bytes < JSON.stringify(listings()).length) throw new Error(`theirs: the model's request carried ${receipt.bytes} bytes, less than the result`);
  return { returnedAt, answeredAt, receipt, routeBytes, backInEvent: 0, backInResult: 0 };
}

/** A turn's figures, the server's stamp brought to the page's clock. */
const sideOf = ({ returnedAt, answeredAt, receipt, ...bytes }: Turn, clock: ClockOffset): ToolResultSide => ({
  ms: receipt.receivedAt - clock.offset - returnedAt,
  turnMs: answeredAt - returnedAt,
  modelBytes: receipt.bytes,
  ...bytes,
});

expose<ToolResultOptions, ToolResultResult>({
  async run({ rounds, warmup }) {
    const clockURL = new URL('/clock', document.baseURI).href;
    const before = await serverClockOffset(clockURL);
    const ours = oursSide(new URL('tool-result/v1', document.baseURI).href);
    const sides = { ours: ours.turn, theirs: theirsTurn };
    const turns: Array<Record<keyof typeof sides, Turn>> = [];
    for (let i = 0; i < warmup + rounds; i++) {
      const round: Partial<Record<keyof typeof sides, Turn>> = {};
      for (const side of i % 2 ? (['theirs', 'ours'] as const) : (['ours', 'theirs'] as const)) round[side] = await sides[side]();
      if (i >= warmup) turns.push(round as Record<keyof typeof sides, Turn>);
    }
    ours.close();
    // The clocks again after the rounds: the quicker ping of the two sets gives the offset.
    const after = await serverClockOffset(clockURL);
    const clock = after.roundTrip < before.roundTrip ? after : before;
    return {
      rounds: turns.map((round) => ({ ours: sideOf(round.ours, clock), theirs: sideOf(round.theirs, clock) })),
      resultChars: JSON.stringify(listings()).length,
      clock,
      clockDrift: after.offset - before.offset,
    };
  },
});
