import * as Comlink from 'comlink';
import { isAmbiError } from '../errors/ambi-error.js';
import { fromWireError, toWireError, type WireError } from './wire-error.js';

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

/** Comlink's own throw handler loses an error's `code`; ours keeps it, so `isAmbiError(e, code)` works on the other side. */
function codedThrowHandler(original: Comlink.TransferHandler<unknown, unknown>): Comlink.TransferHandler<unknown, unknown> {
  return {
    canHandle: original.canHandle,
    serialize(thrown) {
      const value = (thrown as { value: unknown }).value;
      return isAmbiError(value) ? [toWireError(value), []] : original.serialize(thrown);
    },
    deserialize(wire) {
      if (typeof wire === 'object' && wire !== null && (wire as WireError & { ambi?: unknown }).ambi === true) throw fromWireError(wire as WireError);
      return original.deserialize(wire);
    },
  };
}
