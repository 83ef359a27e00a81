// A tiny, valid llama-architecture GGUF model, generated from a seed: nothing downloaded,
// nothing large committed. Pure TypeScript with no Node or DOM APIs, so browser tests,
// Node tests and the demo's e2e can all import it. What llama.cpp (through wllama) was seen to
// accept: GGUF v3, 32-byte alignment, the llama keys written below, `ne` innermost first, norms
// always F32; random weights emit lone bytes 0x80-0xFF, on which llama.cpp's JSON output throws
// (a confusing RangeError in JavaScript), so those tokens are made unsampleable (`BAN_WEIGHT` on a constant channel).

/** A ChatML chat template (Jinja), the one the generated model carries unless told otherwise. */
export const TINY_CHATML_TEMPLATE =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

export interface TinyGgufOptions {
  /** Seeds the weights: the same seed gives the same bytes. Default 1. */
  seed?: number;
  /** `tokenizer.chat_template`; `null` leaves the key out. Default: ChatML. */
  chatTemplate?: string | null;
  /** Also make `</s>` unsampleable, so free text runs until `maxTokens` (a grammar that is complete still ends it). Default false. */
  endless?: boolean;
  /** `llama.context_length`. Default 4096. */
  contextLength?: number;
  /** Store the matrices as F16 (about 250 KB) rather than F32 (about 490 KB). Default true. */
  f16?: boolean;
  /** `general.architecture`; anything but `llama` makes a file llama.cpp refuses (for error tests). Default `llama`. */
  architecture?: string;
  /**
   * Pad the vocabulary with generated pieces (`aa`, `ab`, …, then three letters, …) to this many
   * tokens, as a real model's 32K-152K: what a grammar's cost per token grows with. Default: the
   * 361 tokens of the tiny vocabulary alone.
   */
  vocabSize?: number;
}

// Shapes: 120K parameters, small enough to load in under a second, large enough to run every llama.cpp path.
const N_EMBD = 64;
const N_LAYER = 2;
const N_HEAD = 4;
const N_HEAD_KV = 2;
const N_FF = 128;
const HEAD_DIM = N_EMBD / N_HEAD;
const ALIGNMENT = 32;

/** A logit penalty per unit of the constant channel: enough to make a token unsampleable. */
const BAN_WEIGHT = -1000;

// GGUF value types and ggml tensor types used here.
const UINT32 = 4;
const INT32 = 5;
const FLOAT32 = 6;
const BOOL = 7;
const STRING = 8;
const ARRAY = 9;
const GGML_F32 = 0;
const GGML_F16 = 1;

// Token types (llama.cpp's llama_token_type).
const NORMAL = 1;
const UNKNOWN = 2;
const CONTROL = 3;
const BYTE = 6;

interface Token {
  text: string;
  type: number;
  score: number;
  banned: boolean;
}

/** The vocabulary: specials, the 256 byte tokens, `▁`, printable ASCII and a few longer pieces; padded to `size` with generated pieces. */
export function tinyVocabulary(endless = false, size = 0): Token[] {
  const tokens: Token[] = [
    { text: '<unk>', type: UNKNOWN, score: 0, banned: true },
    { text: '<s>', type: CONTROL, score: 0, banned: true },
    { text: '</s>', type: CONTROL, score: 0, banned: endless },
  ];
  for (let byte = 0; byte < 256; byte++) {
    const hex = byte.toString(16).toUpperCase().padStart(2, '0');
    // Lone bytes 0x80–0xFF would make invalid UTF-8; the others duplicate the ASCII tokens, except newline.
    tokens.push({ text: `<0x${hex}>`, type: BYTE, score: 0, banned: byte !== 0x0a });
  }
  tokens.push({ text: '\u2581', type: NORMAL, score: -1, banned: false });
  for (let code = 0x21; code <= 0x7e; code++) tokens.push({ text: String.fromCharCode(code), type: NORMAL, score: -1, banned: false });
  // Longer pieces whose halves are tokens too, so the SentencePiece merges can reach them.
  for (const piece of ['{"', '":', '",', '"}', '\u2581\u2581', 'er', 'in']) tokens.push({ text: piece, type: NORMAL, score: -0.5, banned: false });
  const taken = new Set(tokens.map((t) => t.text));
  for (const piece of generatedPieces()) {
    if (tokens.length >= size) break;
    if (!taken.has(piece)) tokens.push({ text: piece, type: NORMAL, score: -2, banned: false });
  }
  return tokens;
}

/** Pieces of two letters or digits, then three, and so on, in order. */
function* generatedPieces(): Generator<string> {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  for (let length = 2; ; length++) {
    const at = new Array<number>(length).fill(0);
    for (;;) {
      yield at.map((i) => alphabet[i]).join('');
      let digit = length - 1;
      while (digit >= 0 && ++at[digit]! === alphabet.length) at[digit--] = 0;
      if (digit < 0) break;
    }
  }
}

/** Generate the model's bytes: deterministic for given options. */
export function tinyGguf(options: TinyGgufOptions = {}): Uint8Array<ArrayBuffer> {
  const { seed = 1, chatTemplate = TINY_CHATML_TEMPLATE, endless = false, contextLength = 4096, f16 = true, architecture = 'llama' } = options;
  const vocab = tinyVocabulary(endless, options.vocabSize);
  const random = mulberry32(seed);
  const writer = new GgufWriter();
  const metadata: Array<[string, number, unknown]> = [
    ['general.architecture', STRING, architecture],
    ['general.name', STRING, 'ambi-web tiny test model'],
    ['general.alignment', UINT32, ALIGNMENT],
    ['llama.context_length', UINT32, contextLength],
    ['llama.embedding_length', UINT32, N_EMBD],
    ['llama.block_count', UINT32, N_LAYER],
    ['llama.feed_forward_length', UINT32, N_FF],
    ['llama.attention.head_count', UINT32, N_HEAD],
    ['llama.attention.head_count_kv', UINT32, N_HEAD_KV],
    ['llama.rope.dimension_count', UINT32, HEAD_DIM],
    ['llama.rope.freq_base', FLOAT32, 10000],
    ['llama.attention.layer_norm_rms_epsilon', FLOAT32, 1e-5],
    ['llama.vocab_size', UINT32, vocab.length],
    ['tokenizer.ggml.model', STRING, 'llama'],
    ['tokenizer.ggml.tokens', ARRAY, { type: STRING, items: vocab.map((t) => t.text) }],
    ['tokenizer.ggml.scores', ARRAY, { type: FLOAT32, items: vocab.map((t) => t.score) }],
    ['tokenizer.ggml.token_type', ARRAY, { type: INT32, items: vocab.map((t) => t.type) }],
    ['tokenizer.ggml.unknown_token_id', UINT32, 0],
    ['tokenizer.ggml.bos_token_id', UINT32, 1],
    ['tokenizer.ggml.eos_token_id', UINT32, 2],
    ['tokenizer.ggml.add_bos_token', BOOL, true],
  ];
  if (chatTemplate !== null) metadata.push(['tokenizer.chat_template', STRING, chatTemplate]);

  const tensors = buildTensors(vocab, random, f16);
  writer.header(tensors.length, metadata.length);
  for (const [key, type, value] of metadata) writer.keyValue(key, type, value);
  let offset = 0;
  for (const tensor of tensors) {
    writer.tensorInfo(tensor.name, tensor.shape, tensor.type, offset);
    offset = align(offset + tensor.bytes.length);
  }
  writer.padTo(ALIGNMENT);
  for (const tensor of tensors) {
    writer.bytes(tensor.bytes);
    writer.padTo(ALIGNMENT);
  }
  return writer.finish();
}

interface Tensor {
  name: string;
  /** `ne`, innermost first. */
  shape: number[];
  type: number;
  bytes: Uint8Array;
}

/**
 * Random weights, plus one trick: channel 0 of every embedding is a constant 1 that no layer
 * writes to (row 0 of `attn_output` and `ffn_down` is zero), so `output.weight` can give the
 * banned tokens a huge negative logit through it.
 */
function buildTensors(vocab: Token[], random: () => number, f16: boolean): Tensor[] {
  const matrix = (name: string, shape: [number, number], fill: (row: number, column: number) => number): Tensor => {
    const [inner, outer] = shape;
    const values = new Float32Array(inner * outer);
    for (let row = 0; row < outer; row++) for (let column = 0; column < inner; column++) values[row * inner + column] = fill(row, column);
    return f16 ? { name, shape, type: GGML_F16, bytes: toF16(values) } : { name, shape, type: GGML_F32, bytes: new Uint8Array(values.buffer) };
  };
  const norm = (name: string): Tensor => ({ name, shape: [N_EMBD], type: GGML_F32, bytes: new Uint8Array(new Float32Array(N_EMBD).fill(1).buffer) });
  const uniform = (scale: number) => () => (random() * 2 - 1) * scale;

  const tensors: Tensor[] = [matrix('token_embd.weight', [N_EMBD, vocab.length], (_token, channel) => (channel === 0 ? 1 : (random() * 2 - 1) * 0.1))];
  for (let block = 0; block < N_LAYER; block++) {
    const p = `blk.${block}.`;
    tensors.push(
      norm(`${p}attn_norm.weight`),
      matrix(`${p}attn_q.weight`, [N_EMBD, N_HEAD * HEAD_DIM], uniform(0.3)),
      matrix(`${p}attn_k.weight`, [N_EMBD, N_HEAD_KV * HEAD_DIM], uniform(0.3)),
      matrix(`${p}attn_v.weight`, [N_EMBD, N_HEAD_KV * HEAD_DIM], uniform(0.3)),
      matrix(`${p}attn_output.weight`, [N_HEAD * HEAD_DIM, N_EMBD], (row) => (row === 0 ? 0 : (random() * 2 - 1) * 0.05)),
      norm(`${p}ffn_norm.weight`),
      matrix(`${p}ffn_gate.weight`, [N_EMBD, N_FF], uniform(0.3)),
      matrix(`${p}ffn_up.weight`, [N_EMBD, N_FF], uniform(0.3)),
      matrix(`${p}ffn_down.weight`, [N_FF, N_EMBD], (row) => (row === 0 ? 0 : (random() * 2 - 1) * 0.05)),
    );
  }
  tensors.push(
    norm('output_norm.weight'),
    matrix('output.weight', [N_EMBD, vocab.length], (token, channel) => {
      if (channel === 0) return vocab[token]!.banned ? BAN_WEIGHT : 0;
      return (random() * 2 - 1) * 1.5;
    }),
  );
  return tensors;
}

/** Little-endian GGUF v3 writer into a growing buffer. */
class GgufWriter {
  private buffer = new Uint8Array(new ArrayBuffer(1 << 16));
  private view = new DataView(this.buffer.buffer);
  private length = 0;
  private readonly encoder = new TextEncoder();

  header(tensorCount: number, kvCount: number): void {
    this.bytes(this.encoder.encode('GGUF'));
    this.u32(3);
    this.u64(tensorCount);
    this.u64(kvCount);
  }

  keyValue(key: string, type: number, value: unknown): void {
    this.string(key);
    this.u32(type);
    if (type === ARRAY) {
      const { type: itemType, items } = value as { type: number; items: unknown[] };
      this.u32(itemType);
      this.u64(items.length);
      for (const item of items) this.scalar(itemType, item);
    } else this.scalar(type, value);
  }

  tensorInfo(name: string, shape: number[], type: number, offset: number): void {
    this.string(name);
    this.u32(shape.length);
    for (const size of shape) this.u64(size);
    this.u32(type);
    this.u64(offset);
  }

  padTo(alignment: number): void {
    const padded = Math.ceil(this.length / alignment) * alignment;
    this.reserve(padded - this.length);
    this.length = padded;
  }

  bytes(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.buffer.set(bytes, this.length);
    this.length += bytes.length;
  }

  finish(): Uint8Array<ArrayBuffer> {
    return this.buffer.slice(0, this.length);
  }

  private scalar(type: number, value: unknown): void {
    if (type === STRING) this.string(value as string);
    else if (type === UINT32) this.u32(value as number);
    else if (type === INT32) this.fixed(4, (at) => this.view.setInt32(at, value as number, true));
    else if (type === FLOAT32) this.fixed(4, (at) => this.view.setFloat32(at, value as number, true));
    else if (type === BOOL) this.fixed(1, (at) => this.view.setUint8(at, value ? 1 : 0));
    else throw new Error(`tiny-gguf: no writer for value type ${type}`);
  }

  private string(text: string): void {
    const bytes = this.encoder.encode(text);
    this.u64(bytes.length);
    this.bytes(bytes);
  }

  private u32(value: number): void {
    this.fixed(4, (at) => this.view.setUint32(at, value, true));
  }

  private u64(value: number): void {
    this.fixed(8, (at) => this.view.setBigUint64(at, BigInt(value), true));
  }

  private fixed(size: number, write: (at: number) => void): void {
    this.reserve(size);
    write(this.length);
    this.length += size;
  }

  private reserve(size: number): void {
    if (this.length + size <= this.buffer.length) return;
    let capacity = this.buffer.length * 2;
    while (capacity < this.length + size) capacity *= 2;
    const next = new Uint8Array(capacity);
    next.set(this.buffer.subarray(0, this.length));
    this.buffer = next;
    this.view = new DataView(next.buffer);
  }
}

const align = (offset: number) => Math.ceil(offset / ALIGNMENT) * ALIGNMENT;

/** A small seeded PRNG (mulberry32): the same seed, the same weights, on every engine. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Float32 values as IEEE half floats (round to nearest even), little-endian. */
function toF16(values: Float32Array): Uint8Array {
  const out = new Uint16Array(values.length);
  const f32 = new Float32Array(1);
  const u32 = new Uint32Array(f32.buffer);
  for (let i = 0; i < values.length; i++) {
    f32[0] = values[i]!;
    const bits = u32[0]!;
    const sign = (bits >>> 16) & 0x8000;
    const exponent = ((bits >>> 23) & 0xff) - 127 + 15;
    let mantissa = bits & 0x7fffff;
    if (exponent <= 0) {
      // Subnormal or zero in half precision.
      if (exponent < -10) {
        out[i] = sign;
        continue;
      }
      mantissa |= 0x800000;
      const shift = 14 - exponent;
      let half = mantissa >>> shift;
      const rest = mantissa & ((1 << shift) - 1);
      const midpoint = 1 << (shift - 1);
      if (rest > midpoint || (rest === midpoint && half & 1)) half++;
      out[i] = sign | half;
    } else if (exponent >= 31) {
      out[i] = sign | 0x7c00; // too large: infinity (never reached by these weights)
    } else {
      let half = (exponent << 10) | (mantissa >>> 13);
      const rest = mantissa & 0x1fff;
      if (rest > 0x1000 || (rest === 0x1000 && half & 1)) half++;
      out[i] = sign | half;
    }
  }
  return new Uint8Array(out.buffer);
}
