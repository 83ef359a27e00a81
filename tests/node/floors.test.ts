// The house's floors (docs/architecture.md): a folder of src/ imports only from folders below it,
// `import()` included, so a reader finds a thing where its name says and no import runs in a circle.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const FLOORS = [
  ['core'],
  ['errors'],
  ['util'],
  ['parts'],
  ['store'],
  ['validation'],
  ['tools'],
  ['call'],
  ['parser', 'codemode'],
  ['engines'],
  ['runner'],
  ['extensions', 'leaf', 'mcp', 'webmcp'],
  ['agent'],
  ['extension'],
  ['worker', 'ui', 'ai-sdk', 'ag-ui'],
  ['index.ts', 'extend'],
];
const floorOf = new Map(FLOORS.flatMap((names, floor) => names.map((name) => [name, floor] as const)));
const src = fileURLToPath(new URL('../../src', import.meta.url));

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}

/** The top folder of src/ a path is in (or `index.ts`). */
const folderOf = (path: string) => relative(src, path).split('/')[0]!;

it('no folder of src/ imports from a folder above it', () => {
  const upward: string[] = [];
  for (const file of sources(src)) {
    const from = folderOf(file);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/(?:\bfrom|\bimport\()\s*['"](\.[^'"]+)['"]/g)) {
      const to = folderOf(normalize(join(dirname(file), specifier!)));
      if (to !== from && (floorOf.get(to) ?? -1) > (floorOf.get(from) ?? -1)) upward.push(`${relative(src, file)} imports ${specifier}`);
    }
  }
  expect(upward).toEqual([]);
});

it('every folder of src/ has a floor', () => {
  const folders = readdirSync(src).filter((name) => !name.endsWith('.md'));
  expect(folders.filter((name) => !floorOf.has(name))).toEqual([]);
});
