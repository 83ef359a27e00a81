// Running one of the docs' snippets (tests/support/doc-snippets.ts) in this realm, as a page or a
// Node script would: its module is imported (top-level await and all), what it logs is kept, and
// the workers it started are ended after it, so the next snippet starts clean.

/** A snippet as the written index lists it: enough to name it, check its logs, and load it. */
export interface RunnableSnippet {
  id: string;
  doc: string;
  line: number;
  code: string;
  load: () => Promise<unknown>;
}

/**
 * The `'…'` literals of the comments that follow a `console.log(…)`, one list per such line: what
 * the snippet says it logs. At least one of each list must be in what it logged (`'a' | 'b'` names
 * alternatives).
 */
export function promisedLogs(code: string): string[][] {
  return code
    .split('\n')
    .filter((line) => /console\.log\(/.test(line) && line.includes('//'))
    .map((line) => [...line.slice(line.lastIndexOf('//')).matchAll(/'([^']+)'/g)].map(([, literal]) => literal!))
    .filter((literals) => literals.length > 0);
}

/** A logged value as text: strings as they are, anything else as JSON where it can be. */
function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Import the snippet's module within `timeoutMs`; resolves with what it logged (console.log/info/warn), one line per call. */
export async function runSnippet(load: () => Promise<unknown>, timeoutMs = 30_000): Promise<string> {
  const lines: string[] = [];
  const saved = { log: console.log, info: console.info, warn: console.warn };
  const keep = (...args: unknown[]) => void lines.push(args.map(asText).join(' '));
  console.log = console.info = console.warn = keep;
  // A page's Worker, recorded so that each worker the snippet started is ended after it.
  const OriginalWorker = globalThis.Worker;
  const started: Worker[] = [];
  if (OriginalWorker)
    globalThis.Worker = class extends OriginalWorker {
      constructor(...args: ConstructorParameters<typeof Worker>) {
        super(...args);
        started.push(this);
      }
    };
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      load(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the snippet did not finish within ${timeoutMs} ms; it logged:\n${lines.join('\n')}`)), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    Object.assign(console, saved);
    if (OriginalWorker) globalThis.Worker = OriginalWorker;
    for (const worker of started) worker.terminate();
  }
  return lines.join('\n');
}
