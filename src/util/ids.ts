// A UUID per id cost about half a microsecond, as much as JSON.parse of a small call; so ids
// share a random prefix per batch and differ by a counter.
const BATCH = 0x10000;
let prefix = '';
let next = BATCH;

/** A fresh id for a call the SDK names itself (tag-parsed calls, scripted calls): `call_` and 24 hex digits. */
export function newCallId(): string {
  return `call_${unique()}`;
}

/**
 * A fresh idempotency key for a call (every attempt of it shares the key): `key_` and 24 hex
 * digits, unique as a UUID is, at a counter's cost.
 */
export function newIdempotencyKey(): string {
  return `key_${unique()}`;
}

/** 24 hex digits: a random prefix per batch, then a counter. */
function unique(): string {
  if (next === BATCH) {
    // 20 hex digits of a UUID (about 74 random bits): two batches sharing a prefix is as unlikely as a UUID clash.
    const uuid = crypto.randomUUID();
    prefix = `${uuid.slice(0, 8)}${uuid.slice(9, 13)}${uuid.slice(14, 18)}${uuid.slice(19, 23)}`;
    next = 0;
  }
  const n = next++;
  // Four hex digits from a table: toString(16) cost as much as the rest of a tag-parsed call.
  return prefix + HEX[n >> 8]! + HEX[n & 0xff]!;
}

/** '00' to 'ff'. */
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
