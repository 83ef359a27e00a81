// Every TypeScript block of the README and of the guides in docs/ type-checks as written, each as
// a module of its own, against the public entries (`ambi-web`, `ambi-web/worker`) as an app would
// import them, under the compiler flags of Vite's TypeScript template (unused locals and
// parameters are errors there, so a snippet must use what it makes). Each block opens with a
// `// Needs:` line saying what it needs to run; the docs link only to files in the repository.
// The `@example` blocks of the API reference (doc comments in src/) are checked the same way.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The README, the guides in docs/ (not the generated API reference), CONTRIBUTING and CHANGELOG. */
const documents = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const userFacing = [...documents, 'CONTRIBUTING.md', 'CHANGELOG.md', 'bench/README.md'];

interface Block {
  doc: string;
  line: number;
  code: string;
}

/** A document's ```ts blocks, with the line each starts on (in a source file: its `@example` blocks, without the ` * `). */
function typeScriptBlocks(doc: string): Block[] {
  const blocks: Block[] = [];
  const text = readFileSync(join(root, doc), 'utf8');
  const lines = doc.endsWith('.ts') ? text.split('\n').map((line) => line.replace(/^\s*\* ?/, '')) : text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(ts|typescript)\s*$/.test(lines[i]!)) continue;
    const start = i + 1;
    while (i + 1 < lines.length && lines[++i] !== '```');
    blocks.push({ doc, line: start + 1, code: lines.slice(start, i).join('\n') });
  }
  return blocks;
}

// Inside the project, so `zod` (which a snippet imports) resolves from its node_modules.
mkdirSync(join(root, 'dist'), { recursive: true });
const dir = mkdtempSync(join(root, 'dist', 'readme-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Type-check the blocks, one file each; the diagnostics as `<doc>:<line>: <message>`. */
function check(blocks: Block[]): string[] {
  const files = blocks.map((block) => {
    const file = join(dir, `${block.doc.replaceAll('/', '-')}-${block.line}.ts`);
    // A module of its own (top-level await is allowed, names do not clash between blocks).
    writeFileSync(file, `${block.code}\nexport {};\n`);
    return { file, block };
  });
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    moduleDetection: ts.ModuleDetectionKind.Force,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    types: [],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    isolatedModules: true,
    // What Vite's `vanilla-ts` template turns on: a snippet pasted there must compile as is.
    verbatimModuleSyntax: true,
    noUnusedLocals: true,
    noUnusedParameters: true,
    noFallthroughCasesInSwitch: true,
    erasableSyntaxOnly: true,
    noUncheckedSideEffectImports: true,
    baseUrl: root,
    paths: {
      'ambi-web': ['./src/index.ts'],
      'ambi-web/worker': ['./src/worker/index.ts'],
      'ambi-web/ai-sdk': ['./src/ai-sdk/index.ts'],
      'ambi-web/ag-ui': ['./src/ag-ui/index.ts'],
      'ambi-web/extension': ['./src/extension/index.ts'],
      'ambi-web/extend': ['./src/extend/index.ts'],
    },
    typeRoots: [join(root, 'node_modules', '@types')],
  };
  const host = ts.createCompilerHost(options);
  // Modules the docs name besides ambi-web (zod) resolve from the project's node_modules.
  const program = ts.createProgram({ rootNames: [...files.map((f) => f.file), join(root, 'src/engines/local/wasm-url.d.ts')], options, host });
  const byFile = new Map(files.map((f) => [f.file, f.block]));
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => !d.file || byFile.has(d.file.fileName))
    .map((d) => {
      const block = d.file && byFile.get(d.file.fileName);
      const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : 0;
      return `${block ? `${block.doc}:${block.line + line}` : '?'}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
}

const blocks = documents.flatMap(typeScriptBlocks);
const sources = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts'))
  .map((file) => `src/${file}`)
  .filter((file) => readFileSync(join(root, file), 'utf8').includes('@example'));
const examples = sources.flatMap(typeScriptBlocks);

describe('README and guides', () => {
  it('have TypeScript snippets, each with its imports and a line saying what it needs', () => {
    expect(blocks.filter((b) => b.doc === 'README.md').length).toBeGreaterThanOrEqual(3);
    // Every guide shows its capability in code; the index and the demo's page point elsewhere.
    for (const doc of documents.filter((d) => !['README.md', 'docs/README.md', 'docs/demo.md'].includes(d)))
      expect(
        blocks.some((b) => b.doc === doc),
        `${doc} has a snippet`,
      ).toBe(true);
    for (const { doc, line, code } of blocks) {
      expect(code, `${doc}:${line}`).toMatch(/^import .* from 'ambi-web(\/[a-z-]+)?';$/m);
      expect(code.split('\n')[0], `${doc}:${line} opens with // Needs:`).toMatch(/^\/\/ Needs: \S/);
    }
  });

  it('give the API reference a complete example for the functions people call first', () => {
    expect(examples.length).toBeGreaterThanOrEqual(10);
    for (const { doc, line, code } of examples) expect(code, `${doc}:${line}`).toMatch(/^import .* from 'ambi-web(\/[a-z-]+)?';$/m);
  });

  it('name one model everywhere', () => {
    for (const { doc, line, code } of blocks) for (const [, model] of code.matchAll(/\bmodel: '([^']*)'/g)) expect(model, `${doc}:${line}`).toBe('qwen2.5:7b');
    // The API reference may show a hosted provider's model too; a local server's is the same one.
    for (const { doc, line, code } of examples)
      for (const [, model] of code.matchAll(/localhost:11434\/v1', model: '([^']*)'/g)) expect(model, `${doc}:${line}`).toBe('qwen2.5:7b');
  });

  it('type-check every TypeScript snippet as written, with Vite template flags', { timeout: 120_000 }, () => {
    expect(check([...blocks, ...examples])).toEqual([]);
  });

  it("send the API reference's first page (docs/start.md) on to every guide in its Where next", () => {
    const start = readFileSync(join(root, 'docs/start.md'), 'utf8');
    const whereNext = start.slice(start.indexOf('## Where next'));
    const guides = documents.filter((d) => d.startsWith('docs/') && !['docs/README.md', 'docs/start.md'].includes(d)).map((d) => d.slice('docs/'.length));
    expect(guides.filter((guide) => !whereNext.includes(`](${guide})`))).toEqual([]);
  });

  it("give Ollama the dev server's origin wherever they name OLLAMA_ORIGINS", () => {
    const dev = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.dev as string;
    const origin = `http://${dev.match(/--host (\S+)/)![1]}:${dev.match(/--port (\d+)/)![1]}`;
    // Each document that gives the variable a value lists that origin among its values.
    const named = documents
      .map((doc) => ({
        doc,
        origins: [...readFileSync(join(root, doc), 'utf8').matchAll(/OLLAMA_ORIGINS=([^`\s]+)/g)].flatMap(([, list]) => list!.split(',')),
      }))
      .filter(({ origins }) => origins.length > 0);
    expect(named.map(({ doc }) => doc)).toContain('README.md');
    for (const { doc, origins } of named) expect(origins, doc).toContain(origin);
  });

  it('link only to files in the repository, and every guide is in the index', () => {
    const missing: string[] = [];
    for (const doc of userFacing) {
      const text = readFileSync(join(root, doc), 'utf8');
      for (const name of ['TOOLCHAIN.md', 'ARCHITECTURE.md', 'LOCAL_MODEL.md', 'CORE-SKETCH.md', '../shared'])
        if (text.includes(name)) missing.push(`${doc} names ${name}, a file outside the repository`);
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const path = target!.split('#')[0]!;
        if (path === '' || /^[a-z]+:/.test(path)) continue; // an anchor, or an absolute URL
        const file = join(root, dirname(doc), path);
        if (relative(root, file).startsWith('..')) missing.push(`${doc} links outside the repository: ${target}`);
        else if (!existsSync(file)) missing.push(`${doc} links to a missing file: ${target}`);
      }
    }
    const index = readFileSync(join(root, 'docs/README.md'), 'utf8');
    for (const doc of documents.filter((d) => d.startsWith('docs/') && d !== 'docs/README.md'))
      if (!index.includes(`](${doc.slice('docs/'.length)})`)) missing.push(`docs/README.md does not list ${doc}`);
    expect(missing).toEqual([]);
  });
});
