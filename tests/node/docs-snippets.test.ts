// The docs' snippets that need nothing but ambi-web (and packages npm installs) or a model server,
// and whose Needs line does not name a page or a browser, run here in Node as written: imported as
// modules, top-level await and all, against the fake model server (tests/support/docs-model.ts).
// What each says it logs (a quoted value in the comment after a console.log) is in what it logged.
// The browser's share runs in tests/browser/docs-snippets.test.ts.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docSnippets, writeSnippetModules } from '../support/doc-snippets.js';
import { startDocsModel } from '../support/docs-model.js';
import { promisedLogs, type RunnableSnippet, runSnippet } from '../support/run-snippet.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const { snippets }: { snippets: RunnableSnippet[] } = await import(/* @vite-ignore */ writeSnippetModules(root, 'node'));

let model: Awaited<ReturnType<typeof startDocsModel>>;
beforeAll(async () => {
  model = await startDocsModel();
});
afterAll(() => model.close());

describe('the docs’ snippets that are not run', () => {
  it('are those whose Needs line names more than ambi-web and a model server, each said', () => {
    const notRun = docSnippets(root).flatMap((snippet) => ('beyond' in snippet.runs ? [`${snippet.id}: ${snippet.runs.beyond}`] : []));
    expect(notRun).toEqual([
      "docs/engines.md#1: a hosted provider's API key",
      'docs/engines.md#3: a worker file of the app',
      'docs/extension.md#1: a browser extension',
      'docs/extension.md#2: a browser extension',
      'docs/extension.md#3: a browser extension',
      'docs/local-models.md#1: a GGUF model file',
      'docs/mcp.md#1: an MCP server',
      'docs/mcp.md#2: an MCP server',
      'docs/mcp.md#3: an MCP server',
      'docs/mcp.md#5: an MCP server',
      'docs/mcp.md#6: an MCP server',
      'docs/typed-answers.md#4: a GGUF model file',
      'docs/untrusted-content.md#2: an MCP server',
      'docs/worker-runtime.md#1: a worker file of the app',
      'docs/worker-runtime.md#2: a worker file of the app',
    ]);
  });
});

describe('the docs’ snippets that run in Node', () => {
  it('are there', () => expect(snippets.length).toBeGreaterThanOrEqual(10));

  it.each(snippets.map((snippet) => [snippet.id, snippet] as const))('%s runs as written', { timeout: 40_000 }, async (_, snippet) => {
    (globalThis as { ambiDocsModel?: string }).ambiDocsModel = model.baseURL(snippet.id);
    const logged = await runSnippet(snippet.load);
    for (const literals of promisedLogs(snippet.code))
      expect(
        literals.some((literal) => logged.includes(literal)),
        `${snippet.doc}:${snippet.line} says it logs ${literals.join(' or ')}; it logged:\n${logged}`,
      ).toBe(true);
  });
});
