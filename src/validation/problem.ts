/**
 * One validation problem: where (`instancePath`, a JSON pointer), which keyword failed,
 * its parameters and message. Both argument validators (the compiled ones and the no-eval
 * one, see validate-args.ts) produce these, so the model reads one format.
 */
export interface ArgsProblem {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** One validation problem, written for the model: where, and what was expected. */
export function describeProblem(error: ArgsProblem): string {
  const where = error.instancePath === '' ? 'arguments' : error.instancePath;
  const params = error.params;
  let what = error.message ?? `failed "${error.keyword}"`;
  if (error.keyword === 'additionalProperties') what += ` ('${String(params.additionalProperty)}')`;
  if (error.keyword === 'enum') what += `: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  if (error.keyword === 'const') what += `: ${JSON.stringify(params.allowedValue)}`;
  return `${where} ${what}`;
}

/** A JSON pointer (`/a/0/b`) for a path of keys, escaped as RFC 6901 says (as JSON Schema problems give `instancePath`). */
export function jsonPointer(path: readonly PropertyKey[]): string {
  return path.map((key) => `/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}
