// One concern per file, small enough to read in one sitting: no source file of src/ (the package)
// or demo/ (the app people read to learn it) is over 300 lines.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const MAX_LINES = 300;
const root = fileURLToPath(new URL('../..', import.meta.url));

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (/\.(ts|tsx|js|mjs|css)$/.test(entry.name)) yield path;
  }
}

it.each(['src', 'demo'])(`no file of %s/ is over ${MAX_LINES} lines`, (folder) => {
  const files = [...sources(join(root, folder))];
  expect(files.length).toBeGreaterThan(0);
  const over = files
    .map((file) => ({ file: relative(root, file), lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
    .filter(({ lines }) => lines > MAX_LINES)
    .map(({ file, lines }) => `${file}: ${lines} lines`);
  expect(over).toEqual([]);
});
