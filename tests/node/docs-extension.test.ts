// docs/extension.md: its manifest is one Chrome loads (the example's, kept in step). Its
// TypeScript blocks are type-checked with every guide's (tests/node/pkg-readme.test.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const guide = readFileSync(join(root, 'docs', 'extension.md'), 'utf8');

describe('docs/extension.md', () => {
  it('has snippets for the content script and for the panel', () => {
    expect(guide).toContain("from 'ambi-web/extension'");
    expect(guide).toContain("from 'ambi-web/worker'");
  });

  it("shows the example extension's manifest as it is", () => {
    const shown = guide.match(/```json\n([\s\S]*?)\n```/)?.[1];
    expect(shown, 'a ```json block with the manifest').toBeDefined();
    const manifest = JSON.parse(readFileSync(join(root, 'demo', 'extension', 'public', 'manifest.json'), 'utf8'));
    expect(JSON.parse(shown!)).toEqual(manifest);
  });
});
