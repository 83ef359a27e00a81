// Type-check the ```ts blocks of a Markdown file as written, each as a module of its own, against
// the package's public entries as an app imports them (tests/node/pkg-readme.test.ts does the same
// for the README).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const root = fileURLToPath(new URL('../..', import.meta.url));

/** The Markdown's ```ts blocks, with the line each starts on. */
export function typeScriptBlocks(markdown: string): { line: number; code: string }[] {
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

/** A fresh folder inside the project (so modules the snippets name resolve from its node_modules). */
export function snippetDir(prefix: string): string {
  mkdirSync(join(root, 'dist'), { recursive: true });
  return mkdtempSync(join(root, 'dist', prefix));
}

/** Type-check `blocks` in `dir`, one file each; the diagnostics as `<label>:<line>: <message>`. */
export function checkSnippets(blocks: { line: number; code: string }[], dir: string, label: string): string[] {
  const files = blocks.map((block) => {
    const file = join(dir, `snippet-${block.line}.ts`);
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
    paths: { 'ambi-web': ['./src/index.ts'], 'ambi-web/worker': ['./src/worker/index.ts'], 'ambi-web/extension': ['./src/extension/index.ts'] },
    typeRoots: [join(root, 'node_modules', '@types')],
  };
  const program = ts.createProgram({
    rootNames: [...files.map((f) => f.file), join(root, 'src/engines/local/wasm-url.d.ts')],
    options,
    host: ts.createCompilerHost(options),
  });
  const byFile = new Map(files.map((f) => [f.file, f.block]));
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => !d.file || byFile.has(d.file.fileName))
    .map((d) => {
      const block = d.file && byFile.get(d.file.fileName);
      const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : 0;
      return `${label}:${block ? block.line + line : '?'}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
}
