// One concern per file, small enough to read in one sitting: no source file of src/ is over 300 lines.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const MAX_LINES = 300;
const src = fileURLToPath(new URL('../../src', import.meta.url));

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (/\.(ts|tsx|js|mjs)$/.test(entry.name)) yield path;
  }
}

it(`no file of src/ is over ${MAX_LINES} lines`, () => {
  const over = [...sources(src)]
    .map((file) => ({ file: relative(src, file), lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
    .filter(({ lines }) => lines > MAX_LINES)
    .map(({ file, lines }) => `${file}: ${lines} lines`);
  expect(over).toEqual([]);
});
