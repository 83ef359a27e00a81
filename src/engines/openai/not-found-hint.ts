/**
 * What a 404 from a model server most likely means, as a hint for its error message:
 * - Ollama's "model "x" not found, try pulling it first": the model was never pulled;
 * - any other 404 to a `baseURL` with no API version in its path (`/v1`, `/v1beta`, `/api/v4`):
 *   the root was given where the API root belongs, and `/chat/completions` was appended to it.
 * A 404 to a versioned root that is not about a model gets no guess.
 */
export function notFoundHint(url: string, serverMessage: string, model: string | undefined): string {
  if (/\bmodel\b.*\bnot found\b/i.test(serverMessage)) {
    const name = model && /^[\w.:/-]{1,200}$/.test(model) ? model : '<model>';
    return ` The server does not have the model: for Ollama, \`ollama pull ${name}\` (\`ollama list\` shows the models it has).`;
  }
  if (versioned(url)) return '';
  return ' Does `baseURL` end in `/v1`? `/chat/completions` is appended to it.';
}

/** Whether the API root (the URL before `/chat/completions`) names a version: a path segment such as v1, v1beta or v4. */
function versioned(url: string): boolean {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return false;
  }
  const root = path.replace(/\/chat\/completions\/?$/, '');
  return root.split('/').some((segment) => /^v\d+([a-z]\w*)?$/i.test(segment));
}
