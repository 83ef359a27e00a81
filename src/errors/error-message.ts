/**
 * What went wrong, as text: an Error's message, or anything else as a string. Never throws:
 * a thrown value or abort reason can be anything, even one `String()` refuses
 * (`Object.create(null)`, a throwing `toString`), and no failure may hide behind that.
 */
export function errorMessage(error: unknown): string {
  try {
    if (error instanceof Error) return typeof error.message === 'string' ? error.message : String(error.message);
    return String(error);
  } catch {
    return describeUnprintable(error);
  }
}

function describeUnprintable(value: unknown): string {
  try {
    const keys = typeof value === 'object' && value !== null ? Reflect.ownKeys(value).map(String).slice(0, 5) : [];
    return `a value that cannot be shown as text (${typeof value}${keys.length ? ` with ${keys.join(', ')}` : ''})`;
  } catch {
    return 'a value that cannot be shown as text';
  }
}
