/** Longest piece of a server's text quoted in an error message. */
const MAX_QUOTE = 300;

/** Shorten text for an error message. */
export function preview(text: string, max = MAX_QUOTE): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/**
 * The human message inside an error payload, whatever its shape: `{error:{message}}` (OpenAI,
 * OpenRouter, Groq), `[{error:{…}}]` (Gemini), `{error:"…"}` (Ollama), `{message}` or
 * `{detail}` (vLLM and other FastAPI servers).
 */
export function serverMessage(payload: unknown): string | undefined {
  const value = Array.isArray(payload) ? payload[0] : payload;
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const error = record.error;
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null) {
    const message = (error as Record<string, unknown>).message;
    return typeof message === 'string' ? message : JSON.stringify(error);
  }
  if (typeof record.message === 'string') return record.message;
  if (record.detail !== undefined) return typeof record.detail === 'string' ? record.detail : JSON.stringify(record.detail);
  return undefined;
}

/** The message of an error body given as text: JSON when it parses, else the text itself. */
export function serverMessageFromText(text: string): string {
  try {
    const found = serverMessage(JSON.parse(text));
    if (found !== undefined) return preview(found);
  } catch {
    // Not JSON: an HTML error page or plain text, quoted as is.
  }
  return preview(text);
}
