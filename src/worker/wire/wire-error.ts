import { AmbiError, isAmbiError } from '../../errors/ambi-error.js';
import type { AmbiErrorCode } from '../../core/codes.js';

/** An error as it crosses a boundary: a coded one keeps its code and primitive fields. */
export type WireError =
  | { ambi: true; code: string; name: string; message: string; stack?: string; fields: Record<string, string | number | boolean | null> }
  | { ambi: false; name: string; message: string; stack?: string }
  | { ambi: false; value: unknown };

/**
 * Flatten a thrown value for postMessage. Never throws, whatever was thrown: a value that
 * can be neither cloned nor converted to text (a prototype-less object with a method, an
 * Error whose fields throw) crosses as a description, so the call still ends at once.
 */
export function toWireError(error: unknown): WireError {
  try {
    if (isAmbiError(error)) {
      const fields = Object.fromEntries(Object.entries(error).filter(([, v]) => v === null || ['string', 'number', 'boolean'].includes(typeof v))) as Record<
        string,
        string | number | boolean | null
      >;
      return { ambi: true, code: String(error.code), name: String(error.name), message: String(error.message), fields, ...stackOf(error) };
    }
    if (error instanceof Error) return { ambi: false, name: String(error.name), message: String(error.message), ...stackOf(error) };
  } catch {
    // A field that throws or cannot become text: the error is described below, like any other value.
  }
  try {
    return { ambi: false, value: structuredClone(error) };
  } catch {
    return { ambi: false, value: describe(error) };
  }
}

/** Whether `value` is a WireError (the form every thrown value takes on the wire, see transfer-handlers). */
export function isWireError(value: unknown): value is WireError {
  return typeof value === 'object' && value !== null && typeof (value as { ambi?: unknown }).ambi === 'boolean';
}

function stackOf(error: Error): { stack?: string } {
  return typeof error.stack === 'string' ? { stack: error.stack } : {};
}

/** A value that cannot be cloned, as text: `String(value)` where it has one, else its tag. */
function describe(value: unknown): string {
  try {
    return String(value);
  } catch {
    // No toString (a prototype-less object), or one that throws.
  }
  try {
    return `${Object.prototype.toString.call(value)}, which can be neither cloned nor converted to text`;
  } catch {
    return 'a value that can be neither cloned nor converted to text';
  }
}

/** Rebuild a thrown value on this side; `isAmbiError(e, code)` works on the result. */
export function fromWireError(wire: WireError): unknown {
  if ('value' in wire) return wire.value;
  if (wire.ambi) {
    const error = Object.assign(new AmbiError(wire.code as AmbiErrorCode, wire.message), wire.fields);
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
