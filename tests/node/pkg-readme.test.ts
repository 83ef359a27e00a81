// Issue 15: every TypeScript block of the README type-checks as written, each as a module of its
// own, against the public entries (`ambi-web`, `ambi-web/worker`) as an app would import them.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The README's ```ts blocks, with the line each starts on. */
function typeScriptBlocks(markdown: string): { line: number; code: string }[] {
  const blocks: { line: number; code: string }[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(ts|typescript)\s*$/.test(lines[i]!)) continue;
    const start = i + 1;
    while (i + 1 < lines.length && lines[++i] !== '```');
    blocks.push({ line: start + 1, code: lines.slice(start, i).join('\n') });
  }
  return blocks;
}

// Inside the project, so `zod` (which a snippet imports) resolves from its node_modules.
mkdirSync(join(root, 'dist'), { recursive: true });
const dir = mkdtempSync(join(root, 'dist', 'readme-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Type-check the blocks, one file each; the diagnostics as `README.md:<line>: <message>`. */
function check(blocks: { line: number; code: string }[]): string[] {
  mkdirSync(dir, { recursive: true });
  const files = blocks.map((block) => {
    const file = join(dir, `readme-${block.line}.ts`);
    // A module of its own (top-level await is allowed, names do not clash between blocks).
    writeFileSync(file, `${block.code}\nexport {};\n`);
    return { file, block };
  });
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    types: [],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    isolatedModules: true,
    baseUrl: root,
    paths: {
      'ambi-web': ['./src/index.ts'],
      'ambi-web/worker': ['./src/worker/index.ts'],
      'ambi-web/ai-sdk': ['./src/ai-sdk/index.ts'],
      'ambi-web/ag-ui': ['./src/ag-ui/index.ts'],
    },
    typeRoots: [join(root, 'node_modules', '@types')],
  };
  const host = ts.createCompilerHost(options);
  // Modules the README names besides ambi-web (zod) resolve from the project's node_modules.
  const program = ts.createProgram({ rootNames: [...files.map((f) => f.file), join(root, 'src/engines/local/wasm-url.d.ts')], options, host });
  const byFile = new Map(files.map((f) => [f.file, f.block]));
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => !d.file || byFile.has(d.file.fileName))
    .map((d) => {
      const block = d.file && byFile.get(d.file.fileName);
      const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : 0;
      return `README.md:${block ? block.line + line : '?'}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
}

describe('README', () => {
  const blocks = typeScriptBlocks(readFileSync(join(root, 'README.md'), 'utf8'));

  it('has TypeScript snippets, each with its imports', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(10);
    for (const { line, code } of blocks) expect(code, `README.md:${line}`).toMatch(/^import .* from 'ambi-web(\/worker)?';$/m);
  });

  it('type-checks every TypeScript snippet as written', { timeout: 120_000 }, () => {
    expect(check(blocks)).toEqual([]);
  });
});
