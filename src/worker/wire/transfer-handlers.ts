import * as Comlink from 'comlink';
import { fromWireError, isWireError, toWireError } from './wire-error.js';

// Registered inside the functions that need them (never as a module side effect), so a
// bundler with `sideEffects: false` cannot drop them; registering twice is harmless.
let registered = false;

/** Teach Comlink to carry coded errors, on this side of a boundary. */
export function registerTransferHandlers(): void {
  if (registered) return;
  registered = true;
  const original = Comlink.transferHandlers.get('throw')!;
  Comlink.transferHandlers.set('throw', codedThrowHandler(original));
}

/**
 * Comlink's own throw handler loses an error's `code`, and a thrown value that cannot be
 * cloned fails its reply (the caller hears only "Unserializable return value"). Ours sends
 * every thrown value in the wire form (`toWireError`, which never fails), so
 * `isAmbiError(e, code)` works on the other side and odd values keep a description.
 */
function codedThrowHandler(original: Comlink.TransferHandler<unknown, unknown>): Comlink.TransferHandler<unknown, unknown> {
  return {
    canHandle: original.canHandle,
    serialize: (thrown) => [toWireError((thrown as { value: unknown }).value), []],
    deserialize(wire) {
      if (isWireError(wire)) throw fromWireError(wire);
      return original.deserialize(wire);
    },
  };
}
