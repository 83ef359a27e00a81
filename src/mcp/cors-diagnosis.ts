/** Request headers a browser sends without asking the server first (CORS-safelisted): a failure is never about them. */
const SAFELISTED = new Set(['accept', 'accept-language', 'content-language']);
/** A probe that takes longer than this says nothing. */
const PROBE_TIMEOUT_MS = 5_000;

/**
 * Why a request from a page or worker failed before any answer came (`TypeError: Failed to
 * fetch`, which is all a browser tells a script when CORS refuses a request): the endpoint is
 * probed with bodiless requests, first without the request's own headers, then with each of them
 * alone (a credential's value is never sent again), and the first one refused is named. Undefined
 * outside a browser, where a TypeError is never about CORS, or when the probes tell nothing.
 */
export async function corsDiagnosis(fetchFn: typeof fetch, url: string, init: RequestInit | undefined): Promise<string | undefined> {
  if (!('document' in globalThis) && !('WorkerGlobalScope' in globalThis)) return undefined;
  const method = init?.method ?? 'GET';
  const reaches = async (headers: Record<string, string>) => {
    try {
      const response = await fetchFn(url, { method, headers, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
      await response.body?.cancel();
      return true;
    } catch {
      return false;
    }
  };
  if (!(await reaches({})))
    return method === 'GET' || method === 'POST'
      ? 'the server cannot be reached, or answers without CORS headers for this page (Access-Control-Allow-Origin)'
      : `the server cannot be reached, or its CORS does not allow the method ${method} (Access-Control-Allow-Methods)`;
  for (const name of new Headers(init?.headers).keys()) {
    if (SAFELISTED.has(name)) continue;
    const value = name === 'content-type' ? 'application/json' : 'probe';
    if (!(await reaches({ [name]: value })))
      return `the server's CORS does not allow the request header "${name}" (its Access-Control-Allow-Headers must list it; see docs/mcp.md, CORS)`;
  }
  return undefined;
}
