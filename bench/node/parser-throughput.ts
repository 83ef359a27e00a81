// parser-throughput: the streaming TagToolCallParser over a ~1 MB reply holding many calls,
// against JSON.parse of the same payloads; and the same reply fed in 1-character chunks
// against one chunk.
import { TagToolCallParser } from '../../src/index.js';
import { median, paired, pairedFigure, spread, type Measurement } from '../lib/stats.js';

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

/** Replies a hostile model (or a page it read) might write, each about `bytes` long: what the streaming parser must get through in linear time. */
export function hostileReplies(bytes: number): Record<string, string> {
  const fill = (unit: string, prefix = '') => prefix + unit.repeat(Math.ceil((bytes - prefix.length) / unit.length));
  return {
    'open tags, never closed': fill('[TOOL_CALL]{"name":'),
    'one string, never closed': fill('a', '[TOOL_CALL]{"name":"x","args":{"s":"'),
    'close tags inside a string': fill('[/TOOL_CALL]', '[TOOL_CALL]{"name":"x","args":{"s":"'),
    'tag prefixes': fill('[TOOL_CAL'),
    'deep nesting': fill('[', '[TOOL_CALL]'),
    backslashes: fill('\\', '[TOOL_CALL]{"name":"x","args":{"s":"'),
    'tiny calls': fill('[TOOL_CALL]{"name":"x","args":{}}[/TOOL_CALL]'),
    // Each block a format error the model is told about: JSON that does not parse, and nothing at all.
    'broken JSON': fill('[TOOL_CALL]{"name":"x","args":{"a":1,,"b":}[/TOOL_CALL]'),
    'empty blocks': fill('[TOOL_CALL][/TOOL_CALL]'),
  };
}

/** Feed `reply` in 4-character pieces; returns the number of parts out (kept, so nothing is optimised away). */
function streamIn(parser: TagToolCallParser, pieces: readonly string[]): number {
  const stream = parser.stream();
  let parts = 0;
  for (const piece of pieces) parts += stream.push(piece).length;
  return parts + stream.end().length;
}

export async function parserThroughput(): Promise<Measurement[]> {
  const { reply, payloads } = makeReply();
  const bytes = Buffer.byteLength(reply);
  const mb = bytes / 1e6;
  const parser = new TagToolCallParser();
  const whole = [reply];
  const tokens = chunk(reply, 4);
  const calls = payloads.length;

  let sink = 0;
  const jsonParse = timed(() => {
    for (const payload of payloads) sink += (JSON.parse(payload) as { args: { id: number } }).args.id;
  });
  const oneChunk = timed(() => parseChunks(parser, whole, calls));
  const tokenChunks = timed(() => parseChunks(parser, tokens, calls));

  const throughput = await paired(oneChunk, jsonParse, { warmup: 3, samples: 15 });
  const chunking = await paired(tokenChunks, oneChunk, { warmup: 3, samples: 11 });

  // Hostile replies, each streamed in 4-character pieces, against the benign reply streamed the same way.
  const benign = timed(() => void (sink += streamIn(parser, tokens)));
  const hostile: Array<{ name: string; figure: ReturnType<typeof pairedFigure>; doubled: number }> = [];
  for (const [name, text] of Object.entries(hostileReplies(1_000_000))) {
    const pieces = chunk(text, 4);
    const twice = chunk(`${text}${text}`, 4);
    const times = await paired(
      timed(() => void (sink += streamIn(parser, pieces))),
      benign,
      { warmup: 1, samples: 7 },
    );
    const doubled = median(await Promise.all([1, 2, 3].map(() => timed(() => void (sink += streamIn(parser, twice)))())));
    hostile.push({ name, figure: pairedFigure(times.a, times.b), doubled: doubled / median(times.a) });
  }
  if (sink < 0) console.error(sink); // keeps the results alive
  const worst = hostile.reduce((a, b) => (b.figure.ratio > a.figure.ratio ? b : a));
  const leastLinear = Math.max(...hostile.map((h) => h.doubled));

  const rate = (ms: number) => mb / (ms / 1000);
  return [
    {
      name: 'parser-throughput',
      unit: 'MB/s',
      baseline: `JSON.parse of the same ${calls} payloads (MB/s over the same ${mb.toFixed(2)} MB reply)`,
      ...pairedFigure(throughput.a.map(rate), throughput.b.map(rate)),
      target: '>= 0.5',
      note: `parser ${median(throughput.a).toFixed(1)} ms ±${pct(spread(throughput.a))}, JSON.parse ${median(throughput.b).toFixed(1)} ms ±${pct(spread(throughput.b))}`,
    },
    {
      name: 'parser-token-chunks',
      unit: 'ms/reply',
      baseline: 'the same parser, the reply as one chunk',
      ...pairedFigure(chunking.a, chunking.b),
      target: '<= 4',
      note: `${tokens.length} chunks of 4 characters (about one SSE token each) ±${pct(spread(chunking.a))}`,
    },
    {
      name: 'parser-adversarial',
      unit: 'ms/reply',
      baseline: 'the benign 1 MB reply (prose and calls), streamed the same way in 4-character pieces',
      ...worst.figure,
      target: '<= 25',
      note: `worst of ${hostile.length} hostile 1 MB replies by their median ratio: "${worst.name}"; each one's time at 2 MB over 1 MB (linear is 2): at most ${leastLinear.toFixed(2)}; ${hostile.map((h) => `${h.name} ${h.figure.value.toFixed(0)} ms, x${h.figure.ratio.toFixed(1)} benign (${h.figure.range![0].toFixed(1)}–${h.figure.range![1].toFixed(1)}), x${h.doubled.toFixed(1)} at 2 MB`).join('; ')}`,
    },
  ];
}

const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
