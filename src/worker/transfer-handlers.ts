import * as Comlink from 'comlink';
import { AmbiError, isAmbiError } from '../errors/ambi-error.js';

// Registered inside the functions that need them (never as a module side effect), so a
// bundler with `sideEffects: false` cannot drop them; registering twice is harmless.
let registered = false;

/** Teach Comlink to carry AbortSignals (as MessagePorts) and coded errors, on this side of a boundary. */
export function registerTransferHandlers(): void {
  if (registered) return;
  registered = true;
  Comlink.transferHandlers.set('abortSignal', abortSignalHandler);
  const original = Comlink.transferHandlers.get('throw')!;
  Comlink.transferHandlers.set('throw', codedThrowHandler(original));
}

type WireSignal = { aborted: true; reason: unknown } | { aborted: false; port: MessagePort };

/** An AbortSignal cannot be posted: send its state, or a port that reports its abort later. */
const abortSignalHandler: Comlink.TransferHandler<AbortSignal, WireSignal> = {
  canHandle: (value): value is AbortSignal => value instanceof AbortSignal,
  serialize(signal) {
    if (signal.aborted) return [{ aborted: true, reason: cloneableReason(signal.reason) }, []];
    const { port1, port2 } = new MessageChannel();
    signal.addEventListener('abort', () => {
      port1.postMessage(cloneableReason(signal.reason));
      port1.close();
    }, { once: true });
    return [{ aborted: false, port: port2 }, [port2]];
  },
  deserialize(wire) {
    const controller = new AbortController();
    if (wire.aborted) {
      controller.abort(wire.reason);
      return controller.signal;
    }
    wire.port.onmessage = (event) => {
      controller.abort(event.data);
      wire.port.close();
    };
    return controller.signal;
  },
};

/** Keep a reason's meaning across the boundary: DOMExceptions and Errors clone; anything else becomes text. */
export function cloneableReason(reason: unknown): unknown {
  if (reason instanceof DOMException) return reason;
  if (reason instanceof Error) return { name: reason.name, message: reason.message, ...(isAmbiError(reason) ? { code: reason.code } : {}) };
  try {
    return structuredClone(reason);
  } catch {
    return String(reason);
  }
}

interface WireError {
  ambi: true;
  code: string;
  name: string;
  message: string;
  stack?: string;
  /** The error's own primitive fields (say `status`, `toolName`). */
  fields: Record<string, string | number | boolean | null>;
}

/** Comlink's own throw handler loses an error's `code`; ours keeps it, so `isAmbiError(e, code)` works on the other side. */
function codedThrowHandler(original: Comlink.TransferHandler<unknown, unknown>): Comlink.TransferHandler<unknown, unknown> {
  return {
    canHandle: original.canHandle,
    serialize(thrown) {
      const value = (thrown as { value: unknown }).value;
      if (isAmbiError(value)) {
        const fields = Object.fromEntries(
          Object.entries(value).filter(([, v]) => v === null || ['string', 'number', 'boolean'].includes(typeof v)),
        ) as WireError['fields'];
        const wire: WireError = { ambi: true, code: value.code, name: value.name, message: value.message, fields };
        if (value.stack !== undefined) wire.stack = value.stack;
        return [wire, []];
      }
      return original.serialize(thrown);
    },
    deserialize(wire) {
      if (typeof wire === 'object' && wire !== null && (wire as WireError).ambi === true) {
        const { code, name, message, stack, fields } = wire as WireError;
        const error = Object.assign(new AmbiError(code, message), fields);
        error.name = name;
        if (stack !== undefined) error.stack = stack;
        throw error;
      }
      return original.deserialize(wire);
    },
  };
}
