// Base64 both ways, by the platform's own codec where it has one (`Uint8Array.fromBase64` and
// `toBase64`), else `atob` / `btoa` in chunks (a 1 MB image would overflow `String.fromCharCode(...bytes)`).

type Base64Codec = { fromBase64?(text: string): Uint8Array };
type Base64Bytes = Uint8Array & { toBase64?(): string };
/** Node's Buffer, where there is one (Node has no `toBase64` before version 25): the fast path there. */
type NodeBuffer = { from(bytes: Uint8Array): { toString(encoding: 'base64'): string } };

/** The bytes of base64 `text` (whitespace allowed, as in a data URL); throws a `SyntaxError`-like error on anything else. */
export function fromBase64(text: string): Uint8Array {
  const clean = text.replace(/[\t\n\f\r ]+/g, '');
  const native = (Uint8Array as unknown as Base64Codec).fromBase64;
  if (native) return native(clean);
  const binary = atob(clean);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Base64 of `bytes`. */
export function toBase64(bytes: Uint8Array): string {
  const native = (bytes as Base64Bytes).toBase64;
  if (native) return native.call(bytes);
  const buffer = (globalThis as { Buffer?: NodeBuffer }).Buffer;
  if (buffer) return buffer.from(bytes).toString('base64');
  let binary = '';
  const CHUNK = 0x8000;
  // `apply`, not a spread: five times faster on a large array.
  for (let i = 0; i < bytes.length; i += CHUNK) binary += String.fromCharCode.apply(null, bytes.subarray(i, i + CHUNK) as unknown as number[]);
  return btoa(binary);
}

/** How many bytes base64 text of `length` characters decodes to, at most (before decoding it: a cap is checked first). */
export function base64Size(length: number): number {
  return Math.floor((length * 3) / 4);
}
