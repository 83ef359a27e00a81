// The docs' snippets whose Needs line names a page, a browser or Chromium, run here in Chromium as
// written: imported as modules (top-level await and all) on this page, their workers real, against
// the fake model server (tests/support/docs-model.ts). What each says it logs (a quoted value in the
// comment after a console.log) is in what it logged. The Node share: tests/node/docs-snippets.test.ts.
import { describe, expect, inject, it } from 'vitest';
import { promisedLogs, type RunnableSnippet, runSnippet } from '../support/run-snippet.js';

// Written by the project's globalSetup (tests/support/docs-snippets-setup.ts) before this file runs.
const { snippets }: { snippets: RunnableSnippet[] } = await import(
  /* @vite-ignore */ new URL('../../dist/doc-snippets/browser/index.ts', import.meta.url).href
);
const origin = inject('docsModelOrigin');

describe('the docs’ snippets that run in a page', () => {
  it('are there', () => expect(snippets.length).toBeGreaterThanOrEqual(15));

  it.each(snippets.map((snippet) => [snippet.id, snippet] as const))('%s runs as written', { timeout: 40_000 }, async (_, snippet) => {
    (globalThis as { ambiDocsModel?: string }).ambiDocsModel = `${origin}/s/${encodeURIComponent(snippet.id)}/v1`;
    const logged = await runSnippet(snippet.load);
    for (const literals of promisedLogs(snippet.code))
      expect(
        literals.some((literal) => logged.includes(literal)),
        `${snippet.doc}:${snippet.line} says it logs ${literals.join(' or ')}; it logged:\n${logged}`,
      ).toBe(true);
  });
});
