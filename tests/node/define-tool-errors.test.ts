// What the compiler says to a newcomer: a tool that forgets `idempotent` is a type error that
// names `idempotent` (not `readOnly`, the other way to say a tool is safe to retry); a tool that
// returns a Map names the JSON rule, whatever it says of its effects. Compiled
// with the TypeScript API, as an app would, so the message itself is what is checked.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
mkdirSync(join(root, 'dist'), { recursive: true });
const dir = mkdtempSync(join(root, 'dist', 'define-tool-errors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cases = {
  jsonSchema: `defineTool({ name: 'add', description: 'Add', parameters: { type: 'object', properties: { a: { type: 'number' } } }, call: ({ a }) => a ?? 0 });`,
  withPolicy: `defineTool({ name: 'send', description: 'Send', parameters: { type: 'object', properties: {} }, timeoutMs: 5_000, needsApproval: true, call: () => 'sent' });`,
  zod: `defineTool({ name: 'search', description: 'Search', parameters: z.object({ q: z.string() }), call: ({ q }) => q });`,
  readOnlyFalse: `defineTool({ name: 'put', description: 'Put', parameters: { type: 'object', properties: {} }, readOnly: false, call: () => 1 });`,
  readOnly: `defineTool({ name: 'now', description: 'Now', parameters: { type: 'object', properties: {} }, readOnly: true, call: () => 1 });`,
  idempotent: `defineTool({ name: 'put', description: 'Put', parameters: { type: 'object', properties: {} }, idempotent: false, call: () => 1 });`,
  readOnlyMap: `defineTool({ name: 'index', description: 'Index', parameters: { type: 'object', properties: {} }, readOnly: true, call: () => new Map([['a', 1]]) });`,
  idempotentSet: `defineTool({ name: 'tags', description: 'Tags', parameters: { type: 'object', properties: {} }, idempotent: true, call: async () => ({ tags: new Set(['a']) }) });`,
  noEffectsMap: `defineTool({ name: 'index', description: 'Index', parameters: { type: 'object', properties: {} }, call: () => new Map() });`,
};

/** Each case as a file of its own; the messages of its errors, flattened. */
function messages(): Record<keyof typeof cases, string[]> {
  const files = Object.entries(cases).map(([name, code]) => {
    const file = join(dir, `${name}.ts`);
    writeFileSync(file, `import { z } from 'zod';\nimport { defineTool } from 'ambi-web/worker';\nvoid z;\n${code}\n`);
    return [name, file] as const;
  });
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: [],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    baseUrl: root,
    paths: { 'ambi-web/worker': ['./src/worker/index.ts'] },
  };
  const program = ts.createProgram({ rootNames: [...files.map(([, file]) => file), join(root, 'src/engines/local/wasm-url.d.ts')], options });
  const diagnostics = ts.getPreEmitDiagnostics(program);
  return Object.fromEntries(
    files.map(([name, file]) => [name, diagnostics.filter((d) => d.file?.fileName === file).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))]),
  ) as Record<keyof typeof cases, string[]>;
}

describe('defineTool without idempotent', () => {
  const found = messages();

  it.each(['jsonSchema', 'withPolicy', 'zod', 'readOnlyFalse'] as const)('is a type error that names idempotent (%s)', (name) => {
    expect(found[name]).toHaveLength(1);
    expect(found[name]![0]).toContain("Property 'idempotent' is missing");
    expect(found[name]![0]).not.toContain("Property 'readOnly' is missing");
  });

  it.each(['readOnlyMap', 'idempotentSet', 'noEffectsMap'] as const)('a tool whose output is not JSON is one type error, naming the JSON rule (%s)', (name) => {
    expect(found[name]).toHaveLength(1);
    expect(found[name]![0]).toContain('the tool must return a JSON value (no Map, Set, function, bigint or symbol)');
    expect(found[name]![0]).not.toContain("Property 'idempotent' is missing");
  });

  it('compiles with readOnly: true, or with idempotent stated', () => {
    expect(found.readOnly).toEqual([]);
    expect(found.idempotent).toEqual([]);
  });
});
