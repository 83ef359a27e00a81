// Vitest globalSetup of the browser project, for tests/browser/docs-snippets.test.ts: the docs'
// snippets that run in Chromium written as modules (dist/doc-snippets/browser/), and the fake
// model server they talk to (its origin comes to the test through `inject`).
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { writeSnippetModules } from './doc-snippets.js';
import { startDocsModel } from './docs-model.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The docs' fake model server (tests/support/docs-model.ts): snippet `id` asks `${origin}/s/${id}/v1`. */
    docsModelOrigin: string;
  }
}

export default async function setup(project: TestProject) {
  writeSnippetModules(fileURLToPath(new URL('../..', import.meta.url)), 'browser');
  const model = await startDocsModel();
  project.provide('docsModelOrigin', model.origin);
  return () => model.close();
}
