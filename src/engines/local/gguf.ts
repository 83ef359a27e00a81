import { LocalModelError } from '../../errors/local-model-error.js';
import { tensorBytes } from './ggml-types.js';

/** What the engine reads from a GGUF header before it hands the file to llama.cpp. */
export interface GgufInfo {
  version: number;
  tensorCount: number;
  /** The header's scalar and string values (arrays such as the vocabulary are skipped). */
  metadata: ReadonlyMap<string, string | number | boolean>;
  /** Where the tensor data ends: the least size of a whole file (a lower bound if a tensor type is unknown). */
  requiredBytes: number;
}

const MAGIC = 0x46554747; // "GGUF", little-endian
const SUPPORTED_VERSIONS = [2, 3];
const FIRST_READ = 1 << 20;
/** No real header comes near this; a bigger one is corrupt, and reading it would cost memory. */
const MAX_HEADER_BYTES = 256 << 20;
const DEFAULT_ALIGNMENT = 32;

/** Thrown inside the parse when the slice read so far ends too soon; the caller reads more. */
const NEED_MORE = Symbol('need more bytes');

/** Bytes that open like HTML (`<!doctype`, `<html`, any tag), after a BOM and white space: what a server sends for a page. */
export function looksLikeWebPage(bytes: Uint8Array): boolean {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d)) i++;
  return bytes[i] === 0x3c && i + 1 < bytes.length && /[!a-zA-Z?]/.test(String.fromCharCode(bytes[i + 1]!));
}

/**
 * Check that `blob` is a whole GGUF file and read its header: the magic, a readable version,
 * a header that parses, and tensor data that fits in the file. Throws `LocalModelError`
 * (`not_gguf`, `unsupported_gguf_version`, `truncated_model`).
 */
export async function inspectGguf(blob: Blob): Promise<GgufInfo> {
  for (let size = Math.min(blob.size, FIRST_READ); ; size = Math.min(blob.size, size * 4)) {
    const buffer = await blob.slice(0, size).arrayBuffer();
    try {
      const info = parseHeader(new HeaderReader(buffer, blob.size));
      if (blob.size < info.requiredBytes) {
        throw new LocalModelError('truncated_model', `The model file is cut short: ${blob.size} bytes of at least ${info.requiredBytes}`);
      }
      return info;
    } catch (error) {
      if (error !== NEED_MORE) throw error;
      if (size >= blob.size) throw new LocalModelError('truncated_model', `The model file is cut short: it ends inside its GGUF header (${blob.size} bytes)`);
      if (size >= MAX_HEADER_BYTES) throw new LocalModelError('not_gguf', 'The GGUF header is implausibly large: the file is corrupt');
    }
  }
}

function parseHeader(reader: HeaderReader): GgufInfo {
  if (reader.fileSize < 4 || reader.u32() !== MAGIC) {
    if (looksLikeWebPage(reader.start())) throw new LocalModelError('not_gguf', 'The model file is a web page (HTML), not a GGUF model');
    throw new LocalModelError('not_gguf', 'The model file is not GGUF: it does not start with the "GGUF" magic');
  }
  const version = reader.u32();
  if (!SUPPORTED_VERSIONS.includes(version)) {
    throw new LocalModelError('unsupported_gguf_version', `GGUF version ${version} is not supported (only versions ${SUPPORTED_VERSIONS.join(' and ')})`);
  }
  const tensorCount = reader.count(8);
  const kvCount = reader.count(8);
  const metadata = new Map<string, string | number | boolean>();
  for (let i = 0; i < kvCount; i++) {
    const key = reader.string();
    const value = reader.value(reader.u32());
    if (value !== undefined) metadata.set(key, value);
  }
  const alignment = Number(metadata.get('general.alignment') ?? DEFAULT_ALIGNMENT) || DEFAULT_ALIGNMENT;
  let dataEnd = 0;
  for (let i = 0; i < tensorCount; i++) {
    reader.string(); // name
    const dims = reader.u32();
    if (dims > 8) throw new LocalModelError('not_gguf', `A tensor claims ${dims} dimensions: the GGUF header is corrupt`);
    const shape = Array.from({ length: dims }, () => reader.u64());
    const type = reader.u32();
    const offset = reader.u64();
    dataEnd = Math.max(dataEnd, offset + (tensorBytes(type, shape) ?? 0));
  }
  const dataStart = Math.ceil(reader.position / alignment) * alignment;
  return { version, tensorCount, metadata, requiredBytes: dataStart + dataEnd };
}

/** Little-endian reads over the first bytes of a file; throws NEED_MORE past the slice read so far. */
class HeaderReader {
  position = 0;
  private readonly view: DataView;
  private readonly decoder = new TextDecoder();

  constructor(
    private readonly buffer: ArrayBuffer,
    readonly fileSize: number,
  ) {
    this.view = new DataView(buffer);
  }

  u32(): number {
    return this.view.getUint32(this.take(4), true);
  }

  /** The file's first bytes, whatever has been read. */
  start(): Uint8Array {
    return new Uint8Array(this.buffer, 0, Math.min(64, this.buffer.byteLength));
  }

  u64(): number {
    const value = this.view.getBigUint64(this.take(8), true);
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new LocalModelError('not_gguf', 'The GGUF header holds an impossible size: it is corrupt');
    return Number(value);
  }

  /** A count of items at least `itemBytes` each: more than the file could hold means it is cut (or corrupt). */
  count(itemBytes: number): number {
    const count = this.u64();
    if (count * itemBytes > this.fileSize - this.position) {
      throw new LocalModelError(
        'truncated_model',
        `The model file is cut short: its GGUF header announces ${count} items that ${this.fileSize} bytes cannot hold`,
      );
    }
    return count;
  }

  string(): string {
    const length = this.count(1);
    const start = this.take(length);
    return this.decoder.decode(new Uint8Array(this.buffer, start, length));
  }

  /** One metadata value of GGUF value type `type`; arrays are skipped (undefined). */
  value(type: number): string | number | boolean | undefined {
    switch (type) {
      case 0:
        return this.view.getUint8(this.take(1));
      case 1:
        return this.view.getInt8(this.take(1));
      case 2:
        return this.view.getUint16(this.take(2), true);
      case 3:
        return this.view.getInt16(this.take(2), true);
      case 4:
        return this.u32();
      case 5:
        return this.view.getInt32(this.take(4), true);
      case 6:
        return this.view.getFloat32(this.take(4), true);
      case 7:
        return this.view.getUint8(this.take(1)) !== 0;
      case 8:
        return this.string();
      case 9:
        return this.skipArray();
      case 10:
        return Number(this.view.getBigUint64(this.take(8), true));
      case 11:
        return Number(this.view.getBigInt64(this.take(8), true));
      case 12:
        return this.view.getFloat64(this.take(8), true);
      default:
        throw new LocalModelError('not_gguf', `The GGUF header holds an unknown value type ${type}: it is corrupt`);
    }
  }

  private skipArray(): undefined {
    const type = this.u32();
    if (type === 9) throw new LocalModelError('not_gguf', 'The GGUF header nests arrays: it is corrupt');
    const count = this.count(type === 8 ? 8 : 1);
    // Vocabularies hold 100k+ strings: step over them without decoding.
    if (type === 8) for (let i = 0; i < count; i++) this.take(this.count(1));
    else for (let i = 0; i < count; i++) this.value(type);
    return undefined;
  }

  private take(size: number): number {
    const start = this.position;
    if (start + size > this.buffer.byteLength) throw NEED_MORE;
    this.position += size;
    return start;
  }
}
