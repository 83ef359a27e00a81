import { AmbiError, isAmbiError } from '../errors/ambi-error.js';

/** An error as it crosses a boundary: a coded one keeps its code and primitive fields. */
export type WireError =
  | { ambi: true; code: string; name: string; message: string; stack?: string; fields: Record<string, string | number | boolean | null> }
  | { ambi: false; name: string; message: string; stack?: string }
  | { ambi: false; value: unknown };

/** Flatten a thrown value for postMessage. */
export function toWireError(error: unknown): WireError {
  if (isAmbiError(error)) {
    const fields = Object.fromEntries(
      Object.entries(error).filter(([, v]) => v === null || ['string', 'number', 'boolean'].includes(typeof v)),
    ) as Record<string, string | number | boolean | null>;
    return { ambi: true, code: error.code, name: error.name, message: error.message, fields, ...(error.stack ? { stack: error.stack } : {}) };
  }
  if (error instanceof Error) return { ambi: false, name: error.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}) };
  try {
    return { ambi: false, value: structuredClone(error) };
  } catch {
    return { ambi: false, value: String(error) };
  }
}

/** Rebuild a thrown value on this side; `isAmbiError(e, code)` works on the result. */
export function fromWireError(wire: WireError): unknown {
  if ('value' in wire) return wire.value;
  if (wire.ambi) {
    const error = Object.assign(new AmbiError(wire.code, wire.message), wire.fields);
    error.name = wire.name;
    if (wire.stack !== undefined) error.stack = wire.stack;
    return error;
  }
  const error = new Error(wire.message);
  error.name = wire.name;
  if (wire.stack !== undefined) error.stack = wire.stack;
  return error;
}

/** An abort reason as it crosses: a DOMException clones as itself; anything else as a thrown value does. */
export type WireReason = DOMException | WireError;

export function toWireReason(reason: unknown): WireReason {
  return reason instanceof DOMException ? reason : toWireError(reason);
}

/** The reason as it was given: an Error is an Error again (an AmbiError keeps its code), a DOMException stays one. */
export function fromWireReason(wire: WireReason): unknown {
  return wire instanceof DOMException ? wire : fromWireError(wire);
}
