// parser-throughput: the streaming TagToolCallParser over a ~1 MB reply holding many calls,
// against JSON.parse of the same payloads; and the same reply fed in 1-character chunks
// against one chunk.
import { TagToolCallParser } from '../../src/index.js';
import { median, paired, spread, type Measurement } from '../lib/stats.js';

const TARGET_BYTES = 1_000_000;

/** A reply like a busy model's: a line of prose, then a tagged call, over and over. */
export function makeReply(targetBytes = TARGET_BYTES): { reply: string; payloads: string[] } {
  const pieces: string[] = [];
  const payloads: string[] = [];
  let size = 0;
  for (let i = 0; size < targetBytes; i++) {
    const text = `Step ${i}: saving note ${i} now.\n`;
    const payload = JSON.stringify({
      name: 'write_note',
      args: {
        id: i,
        title: `Note ${i}`,
        // A close tag, quotes and escapes inside a string: the parser must not be fooled.
        body: `He said "see [/TOOL_CALL] here", path C:\\notes\\${i}; ${'lorem ipsum dolor sit amet '.repeat(6)}`,
        tags: ['bench', `t${i % 7}`],
        pinned: i % 2 === 0,
        weight: i * 0.5,
      },
    });
    payloads.push(payload);
    const block = `${text}[TOOL_CALL]${payload}[/TOOL_CALL]\n`;
    pieces.push(block);
    size += block.length;
  }
  pieces.push('All notes are saved.');
  return { reply: pieces.join(''), payloads };
}

export function chunk(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function parseChunks(parser: TagToolCallParser, chunks: readonly string[], expectedCalls: number): void {
  const stream = parser.stream();
  let calls = 0;
  let errors = 0;
  for (const piece of chunks) for (const part of stream.push(piece)) part.type === 'call' ? calls++ : part.type === 'error' && errors++;
  for (const part of stream.end()) part.type === 'call' ? calls++ : part.type === 'error' && errors++;
  if (calls !== expectedCalls || errors !== 0) throw new Error(`parser: ${calls} calls and ${errors} errors, expected ${expectedCalls} calls`);
}

const timed = (body: () => void) => async () => {
  const start = performance.now();
  body();
  return performance.now() - start;
};

export async function parserThroughput(): Promise<Measurement[]> {
  const { reply, payloads } = makeReply();
  const bytes = Buffer.byteLength(reply);
  const mb = bytes / 1e6;
  const parser = new TagToolCallParser();
  const whole = [reply];
  const chars = chunk(reply, 1);
  const tokens = chunk(reply, 4);
  const calls = payloads.length;

  let sink = 0;
  const jsonParse = timed(() => {
    for (const payload of payloads) sink += (JSON.parse(payload) as { args: { id: number } }).args.id;
  });
  const oneChunk = timed(() => parseChunks(parser, whole, calls));
  const charChunks = timed(() => parseChunks(parser, chars, calls));
  const tokenChunks = timed(() => parseChunks(parser, tokens, calls));

  const throughput = await paired(oneChunk, jsonParse, { warmup: 3, samples: 15 });
  const chunking = await paired(charChunks, oneChunk, { warmup: 3, samples: 11 });
  // For reference: 4-character chunks, about one token of an SSE stream.
  const tokenChunking = await paired(tokenChunks, oneChunk, { warmup: 1, samples: 5 });
  if (sink < 0) console.error(sink); // keeps the JSON.parse results alive

  const parserMBs = mb / (median(throughput.a) / 1000);
  const jsonMBs = mb / (median(throughput.b) / 1000);
  const oneMs = median(chunking.b);
  const charMs = median(chunking.a);
  return [
    {
      name: 'parser-throughput',
      value: parserMBs,
      unit: 'MB/s',
      baseline: `JSON.parse of the same ${calls} payloads (MB/s over the same ${mb.toFixed(2)} MB reply)`,
      baselineValue: jsonMBs,
      ratio: parserMBs / jsonMBs,
      target: '>= 0.5',
      note: `parser ${median(throughput.a).toFixed(1)} ms ±${pct(spread(throughput.a))}, JSON.parse ${median(throughput.b).toFixed(1)} ms ±${pct(spread(throughput.b))}`,
    },
    {
      name: 'parser-1char-chunks',
      value: charMs,
      unit: 'ms/reply',
      baseline: `the same parser, the reply as one chunk`,
      baselineValue: oneMs,
      ratio: charMs / oneMs,
      target: '<= 3',
      note: `${reply.length} chunks of 1 char ±${pct(spread(chunking.a))}; 4-char chunks (about a token): ${median(tokenChunking.a).toFixed(1)} ms, ${(median(tokenChunking.a) / median(tokenChunking.b)).toFixed(2)}x`,
    },
  ];
}

const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
