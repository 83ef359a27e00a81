// docs/extension.md: its manifest is one Chrome loads (the example's, kept in step), and every
// TypeScript block type-checks as written against the public entries.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkSnippets, root, snippetDir, typeScriptBlocks } from '../support/ts-snippets.js';

const guide = readFileSync(join(root, 'docs', 'extension.md'), 'utf8');
const dir = snippetDir('extension-guide-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('docs/extension.md', () => {
  it('has TypeScript snippets for the content script and the panel, each with its imports', () => {
    const blocks = typeScriptBlocks(guide);
    expect(blocks.some(({ code }) => code.includes("from 'ambi-web/extension'"))).toBe(true);
    expect(blocks.some(({ code }) => code.includes("from 'ambi-web/worker'"))).toBe(true);
    for (const { line, code } of blocks) expect(code, `docs/extension.md:${line}`).toMatch(/^import .* from '[^']+';$/m);
  });

  it('type-checks every TypeScript snippet as written', { timeout: 120_000 }, () => {
    expect(checkSnippets(typeScriptBlocks(guide), dir, 'docs/extension.md')).toEqual([]);
  });

  it("shows the example extension's manifest as it is", () => {
    const shown = guide.match(/```json\n([\s\S]*?)\n```/)?.[1];
    expect(shown, 'a ```json block with the manifest').toBeDefined();
    const manifest = JSON.parse(readFileSync(join(root, 'demo', 'extension', 'public', 'manifest.json'), 'utf8'));
    expect(JSON.parse(shown!)).toEqual(manifest);
  });
});
