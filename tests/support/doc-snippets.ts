// The README's and the guides' TypeScript snippets as `npm test` runs them: each block, its
// `// Needs:` line, and where it runs. A snippet that needs nothing but ambi-web (and packages
// npm installs) or a model server runs, in Chromium when its Needs line names a page, a browser or
// Chromium (and not Node), else in Node; the model server is a fake the tests start
// (tests/support/docs-model.ts). A snippet whose Needs line names something more (an extension,
// a model file, an MCP server, a worker file of the app) is type-checked only
// (tests/node/pkg-readme.test.ts), and the tests list it by name.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type Realm = 'node' | 'browser';

export interface DocSnippet {
  /** `<doc>#<n>`: the n-th TypeScript block of the document, from 1. */
  id: string;
  doc: string;
  /** The line the code starts on (its `// Needs:` line). */
  line: number;
  needs: string;
  code: string;
  /** Where it runs, or why it is not run. */
  runs: { realm: Realm } | { beyond: string };
}

/** What a Needs line may name that the tests do not provide, and how the test list says it. */
const BEYOND_THE_SDK: Array<[RegExp, string]> = [
  [/\bextension's\b/, 'a browser extension'],
  [/\bGGUF\b/, 'a GGUF model file'],
  [/\bMCP server\b|mcp-demo-server/, 'an MCP server'],
  [/\bVite app\b|\bmodule worker\b/, 'a worker file of the app'],
  [/\bAPI key\b/, "a hosted provider's API key"],
];

/** The model server the docs name; the running copy asks the fake one instead. */
export const DOCS_MODEL_URLS = ['http://localhost:11434/v1', 'http://127.0.0.1:11434/v1'];

/** The README and the guides in docs/, as pkg-readme.test.ts reads them. */
export function documents(root: string): string[] {
  return [
    'README.md',
    ...readdirSync(join(root, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .sort()
      .map((name) => `docs/${name}`),
  ];
}

/** Where a snippet runs, from its Needs line: Chromium for a page, a browser or Chromium (unless Node is named too), else Node. */
export function runsOf(needs: string): DocSnippet['runs'] {
  for (const [pattern, beyond] of BEYOND_THE_SDK) if (pattern.test(needs)) return { beyond };
  const browser = /\b(page|browser|Chromium)\b/.test(needs) && !/\bNode\b/.test(needs);
  return { realm: browser ? 'browser' : 'node' };
}

/** Every ```ts block of the README and the guides. */
export function docSnippets(root: string): DocSnippet[] {
  const snippets: DocSnippet[] = [];
  for (const doc of documents(root)) {
    const lines = readFileSync(join(root, doc), 'utf8').split('\n');
    let n = 0;
    for (let i = 0; i < lines.length; i++) {
      if (!/^```(ts|typescript)\s*$/.test(lines[i]!)) continue;
      const start = i + 1;
      while (i + 1 < lines.length && lines[++i] !== '```');
      const code = lines.slice(start, i).join('\n');
      const needs = code.split('\n')[0]!.replace(/^\/\/ Needs:\s*/, '');
      snippets.push({ id: `${doc}#${++n}`, doc, line: start + 1, needs, code, runs: runsOf(needs) });
    }
  }
  return snippets;
}

/** The code as the tests run it: the model server's URL is the fake one, read from `globalThis.ambiDocsModel`. */
export function runnableCode(code: string): string {
  let runnable = code;
  for (const url of DOCS_MODEL_URLS) runnable = runnable.replaceAll(`'${url}'`, '(globalThis as unknown as { ambiDocsModel: string }).ambiDocsModel');
  return `${runnable}\nexport {};\n`;
}

/**
 * Write the snippets that run in `realm` as modules under dist/doc-snippets/<realm>/, with an
 * index that lists them and loads each; returns the index's path.
 */
export function writeSnippetModules(root: string, realm: Realm): string {
  const dir = join(root, 'dist', 'doc-snippets', realm);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const entries: string[] = [];
  for (const snippet of docSnippets(root)) {
    if (!('realm' in snippet.runs) || snippet.runs.realm !== realm) continue;
    const file = `${snippet.id.replace(/[^\w.-]+/g, '-')}.ts`;
    writeFileSync(join(dir, file), runnableCode(snippet.code));
    const { id, doc, line, code } = snippet;
    entries.push(`  { ...${JSON.stringify({ id, doc, line, code })}, load: () => import('./${file}') },`);
  }
  const index = join(dir, 'index.ts');
  writeFileSync(
    index,
    `// Written by tests/support/doc-snippets.ts: the docs' snippets that run in ${realm}.\n` + `export const snippets = [\n${entries.join('\n')}\n];\n`,
  );
  return index;
}
